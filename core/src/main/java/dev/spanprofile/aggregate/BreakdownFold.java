package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * Folds a finished request's breakdown into its cell's {@link BreakdownSums}: one pass
 * over its waits, each wait's leaf frame looked up in {@link WaitSlots} (a parse only the
 * first time a frame is seen), then a few additions. Nothing is allocated per request
 * beyond what a new slot in a cell takes. Guarded by the {@link NameProfiles} lock, which
 * is why the one visitor and its target can be fields.
 */
final class BreakdownFold {

	private final WaitSlots slots;

	private BreakdownSums into;

	private long waitNanos;

	private final StackTree.EventsVisitor waitVisitor = this::addWait;

	BreakdownFold(FrameTable frames) {
		this.slots = new WaitSlots(frames);
	}

	private void addWait(int[] path, int depth, long total, long self, long selfEvents) {
		if (self != 0 || selfEvents != 0) {
			this.into.addWait(this.slots, this.slots.slotOf(path[depth - 1]), self, selfEvents);
			this.waitNanos += self;
		}
	}

	/**
	 * @param waits its waits, weighed in nanoseconds, or {@code null} when it has none
	 * @param cpuNanos its CPU time, negative where CPU is not sampled
	 * @param measured whether that was read from its threads' CPU clocks
	 * @param cpuSamples its CPU samples
	 * @param runQueueNanos its threads' time runnable, not running; negative where not
	 * read
	 * @param blockedNanos their time blocked; negative where not read
	 */
	void fold(BreakdownSums into, long durationNanos, StackTree waits, long cpuNanos, boolean measured, long cpuSamples,
			long runQueueNanos, long blockedNanos) {
		this.into = into;
		this.waitNanos = 0;
		if (waits != null) {
			waits.visit(this.waitVisitor);
		}
		into.addRequest(durationNanos, cpuNanos, measured, cpuSamples, runQueueNanos, blockedNanos, this.waitNanos);
		this.into = null;
	}

	/** A fresh accumulator over cells, to {@link BreakdownSums#addAll add} them into. */
	BreakdownSums sums() {
		return BreakdownSums.unbounded();
	}

	void addAll(BreakdownSums into, BreakdownSums cell) {
		into.addAll(this.slots, cell);
	}

	/** What {@code sums} holds, its waits named. */
	RequestsBreakdown breakdown(BreakdownSums sums) {
		List<RequestsBreakdown.Waits> waits = new ArrayList<>(sums.size());
		for (int i = 0; i < sums.size(); i++) {
			int slot = sums.slot(i);
			waits.add(new RequestsBreakdown.Waits(this.slots.kind(slot), this.slots.detail(slot),
					WaitSlots.isOthers(slot), sums.nanos(i), sums.count(i)));
		}
		waits.sort(Comparator.comparingLong(RequestsBreakdown.Waits::nanos).reversed());
		return new RequestsBreakdown(sums.requests, sums.durationNanos, sums.cpuRequests, sums.cpuNanos,
				sums.cpuSamples, sums.measuredRequests, sums.scheduledRequests, sums.coreWaitNanos,
				sums.coreWaitInWaitsNanos, sums.shortWaitNanos, sums.unaccountedNanos, sums.overlapNanos,
				List.copyOf(waits));
	}

	long bytes() {
		return this.slots.bytes();
	}

}
