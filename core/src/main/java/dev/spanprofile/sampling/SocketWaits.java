package dev.spanprofile.sampling;

import java.time.Duration;

/**
 * How socket waits are recorded beside the other waits: a threshold of their own, lower
 * than the others', so that a chatty request's round trips to its database (8 ms each,
 * forty of them) count, and the names the application gives its peers.
 * <p>
 * Flight Recorder has one threshold and one stack setting per event type, and recording
 * an event is what costs: about 20–25 µs of CPU each with its stack (the waiting thread's
 * stack walk 4–5 µs of it, the rest writing and parsing the event), 17 µs without,
 * against about 1 µs to time one that is not recorded. At 1 ms, every recorded wait keeps
 * its stack for at most 2.5 % of the time it records; below that a loopback or in-memory
 * exchange (10–50 µs) would cost as much as itself, and a non-blocking server's every
 * read and write would be recorded.
 *
 * @param threshold shortest socket read or write recorded (the lower of this and the
 * other waits' threshold applies)
 * @param peers names of peers the application knows
 */
public record SocketWaits(Duration threshold, PeerNames peers) {

	/** The threshold when none is given. */
	public static final Duration DEFAULT_THRESHOLD = Duration.ofMillis(1);

	public SocketWaits {
		if (threshold == null || threshold.isNegative()) {
			throw new IllegalArgumentException("waits.socket-threshold must not be negative, was " + threshold);
		}
		if (peers == null) {
			peers = new PeerNames();
		}
	}

	/** The default threshold, no peer named. */
	public static SocketWaits defaults() {
		return new SocketWaits(DEFAULT_THRESHOLD, new PeerNames());
	}

}
