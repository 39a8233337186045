package dev.spanprofile.sampling;

import java.time.Duration;

/**
 * How socket waits are recorded beside the other waits: a threshold of their own, lower
 * than the others', so that a chatty request's round trips to its database (8 ms each,
 * forty of them) count, and the names the application gives its peers.
 * <p>
 * Flight Recorder has one threshold and one stack setting per event type, and recording
 * an event is what costs, stack or not (JDK 17, 100-frame stacks, a loaded machine): 5–18
 * µs of the waiting thread's CPU and 4–8 µs of the stream's parsing per recorded wait, 17
 * µs of the process's CPU per event without stacks and 25–28 µs with them in bulk,
 * against under a microsecond to time a wait that is not recorded. At 1 ms a recorded
 * wait keeps its stack for about 1–3 % of the time it records; at 0 a loopback exchange
 * (20–50 µs) would cost as much as itself, and a non-blocking server's every read and
 * write would be recorded.
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
