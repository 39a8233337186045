package dev.spanprofile.view;

/**
 * How long a span name's requests were runnable but not running, waiting for a core, as
 * the name list carries it beside their waits ({@link NameWaits}): read from the kernel's
 * per-thread figures, less what recorded waits already hold. Times in milliseconds to the
 * microsecond, the share in percent of the requests' time to one decimal.
 *
 * @param millis waited for a core in all over the window
 * @param millisPerRequest per request
 * @param percent of the requests' time
 * @param requests of the name's requests, those whose threads' figures were read (a
 * thread that was not a platform thread's, or a request without a CPU figure, is left
 * out)
 */
public record NameCoreWaitJson(double millis, double millisPerRequest, double percent, long requests) {
}
