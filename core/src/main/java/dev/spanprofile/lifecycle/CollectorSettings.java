package dev.spanprofile.lifecycle;

import java.time.Duration;

/**
 * Every time the collector goes by, in one place: when it collects, how often it drains
 * between collections, how long change points are kept and how long a reader or a stop
 * waits for it. Only the dump interval is a setting users see
 * ({@code spanprofile.dump-interval}); the others follow from what the engines and the
 * rings do, and are here so that they are read together and tests can state them.
 *
 * @param dumpInterval a collection is due this long after the last one
 * @param fresh a collection this recent leaves nothing worth another for a reader: a dump
 * costs a few milliseconds whatever it holds (async-profiler names every method its
 * stacks reference again), and a page polling several views at once asks in a burst
 * @param roomMargin how soon the room for requests awaiting their samples may be about to
 * fill before a collection is brought forward, on top of the time collections took to
 * empty it (measured): a few quick drains to notice, with room to spare for a pause
 * @param slowRequestDelay how long after a slow request ends a collection is brought
 * forward for its log line: Flight Recorder's waits reach the collector about a second
 * behind (its stream flushes once a second), so an earlier collection would not complete
 * the request
 * @param quickestDrain the shortest wait between two drains of the threads' rings
 * @param slowestDrain the longest wait between two drains
 * @param drainTargetFill the share of the fullest ring a drain should find, between the
 * quickest and the slowest pace
 * @param minDeliveryHorizon how far behind now an engine's promise may lag before
 * anything is known of the engine: change points this recent are kept for it
 * @param maxDeliveryHorizon beyond this lag a promise counts as stopped, however late it
 * has been before
 * @param forgetSlack change points are kept this long before the watermark: a sample may
 * be stamped just before the point that ends its span is published
 * @param unsampledMaxAge an unsampled request not ended this long after it started (an
 * observation never stopped) is let go with its samples
 * @param readerWait how long a reader (a page, a caller of {@code collectNow}) waits at
 * most for the collection it asked for; past it, it reads what is joined
 * @param stopWait how long stopping waits for a collection in progress to finish
 */
public record CollectorSettings(Duration dumpInterval, Duration fresh, Duration roomMargin, Duration slowRequestDelay,
		Duration quickestDrain, Duration slowestDrain, double drainTargetFill, Duration minDeliveryHorizon,
		Duration maxDeliveryHorizon, Duration forgetSlack, Duration unsampledMaxAge, Duration readerWait,
		Duration stopWait) {

	/** The collector's times for a dump interval, the others as measured and reasoned. */
	public static CollectorSettings forDumpInterval(Duration dumpInterval) {
		return new CollectorSettings(dumpInterval, Duration.ofMillis(200), Duration.ofMillis(200),
				Duration.ofSeconds(1), Duration.ofMillis(50), Duration.ofMillis(250), 0.25,
				dumpInterval.multipliedBy(60), dumpInterval.multipliedBy(600), dumpInterval.multipliedBy(2),
				Duration.ofMinutes(10), Duration.ofSeconds(10), Duration.ofSeconds(5));
	}

}
