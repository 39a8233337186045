package dev.spanprofile.attribution;

/**
 * Where the cpu and wall samples went since the engine started:
 * {@link AttributionCounters#stats()}.
 *
 * @param attributed samples given to a span
 * @param outsideSpans samples of threads that ran no tracked span at the time (idle
 * pools, background work, unsampled traces, whose samples still count in their name's
 * profile)
 * @param unknown samples whose thread's state was unknown (change points lost, or the
 * thread not yet seen)
 */
public record AttributionStats(long attributed, long outsideSpans, long unknown) {

	public long total() {
		return this.attributed + this.outsideSpans + this.unknown;
	}

}
