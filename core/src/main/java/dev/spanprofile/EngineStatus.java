package dev.spanprofile;

/**
 * What the engine is doing, for users wondering why a span has no samples.
 *
 * @param engine sampling engine name, e.g. {@code async-profiler}
 * @param event the event actually sampled (may differ from the one asked for after a
 * fallback)
 * @param running whether samples are being taken now
 * @param problem why not, when not running; {@code null} otherwise
 * @param note what to know about the results while running (a fallback, a limit of the
 * engine), or {@code null}
 */
public record EngineStatus(String engine, String event, boolean running, String problem, String note) {

}
