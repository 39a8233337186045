package dev.spanprofile.attribution;

import dev.spanprofile.store.MeasuredCpu;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.SpanRecordRef;
import dev.spanprofile.tracking.ThreadActivity;

/**
 * One thread's stretch inside a request, from the change point where it entered the
 * request's spans to the one where it left them, each carrying the thread's CPU clock
 * and, where the kernel tells it, its run-queue wait: the differences, and the stretch's
 * own length, are added to the request's {@link MeasuredCpu}. Whatever makes the
 * difference doubtful (a change point lost, another request's span attached in between, a
 * point with no clock read) marks the request as not measured in full, so that its CPU
 * comes from its samples rather than from a partial sum. A thread that comes straight
 * back into the span it left ({@link ThreadActivity#CLOCK_CONTINUED}) goes on with the
 * stretch it closed there.
 */
final class ThreadCpuStretch {

	private static final long UNREAD = -1;

	/**
	 * The request the thread is in, measured since {@link #openedAt}; {@code null}
	 * outside one.
	 */
	private MeasuredCpu open;

	/** The change point's time, CPU clock and run-queue wait where it was opened. */
	private long openedTime;

	private long openedAt;

	private long openedRunQueue;

	/**
	 * The request whose stretch the thread's last point closed, and the time and clocks
	 * there; {@code null} otherwise.
	 */
	private MeasuredCpu closed;

	private long closedTime;

	private long closedAt;

	private long closedRunQueue;

	/**
	 * The thread's state changed to {@code state} (a {@link SpanRecordRef} or not), with
	 * its CPU clock and run-queue wait or -1, read at {@code time}.
	 */
	void changed(Object state, long time, long cpuNanos, long runQueueNanos, boolean gapsKnown) {
		MeasuredCpu now = requestOf(state);
		MeasuredCpu closed = this.closed;
		this.closed = null;
		if (cpuNanos == ThreadActivity.CLOCK_CONTINUED) {
			if (now != null && now == closed && this.open == null) {
				// The stretch goes on: the next exit's clocks less the ones read where it
				// left count the rest.
				now.stretchOpened();
				open(now, this.closedTime, this.closedAt, this.closedRunQueue);
				return;
			}
			cpuNanos = UNREAD;
		}
		if (cpuNanos == UNREAD && runQueueNanos < 0) {
			if (now != this.open) {
				// Another request, or none, without the thread leaving spans: no clock
				// says where one ended.
				lose();
				if (now != null) {
					now.partUnmeasured();
				}
			}
			return;
		}
		if (this.open != null) {
			if (now == null || now == this.open) {
				boolean runQueueRead = runQueueNanos >= 0 && this.openedRunQueue >= 0;
				boolean cpuRead = cpuNanos >= 0 && this.openedAt >= 0;
				this.open.stretchClosed(cpuRead ? cpuNanos - this.openedAt : UNREAD,
						runQueueRead ? runQueueNanos - this.openedRunQueue : UNREAD, time - this.openedTime);
				if (now == null) {
					this.closed = this.open;
					this.closedTime = time;
					this.closedAt = cpuNanos;
					this.closedRunQueue = runQueueNanos;
				}
				this.open = null;
			}
			else {
				lose();
			}
		}
		if (now != null) {
			boolean fromPrevious = gapsKnown && closed != null && closed != now && runQueueNanos >= 0
					&& this.closedRunQueue >= 0;
			// The thread comes from its previous request with nothing in between: the
			// kernel's count since that exit is its wait for a core to take this one.
			// Not where untraced requests run unprofiled: one may have run in between
			// without a change point, and its waits would be counted here.
			now.waitedBeforeStart(time, fromPrevious ? runQueueNanos - this.closedRunQueue : UNREAD);
			now.stretchOpened();
			open(now, time, cpuNanos, runQueueNanos);
		}
	}

	private void open(MeasuredCpu request, long time, long cpuNanos, long runQueueNanos) {
		this.open = request;
		this.openedTime = time;
		this.openedAt = cpuNanos;
		this.openedRunQueue = runQueueNanos;
	}

	/** What the thread did since the last point is unknown. */
	void lose() {
		this.closed = null;
		if (this.open != null) {
			this.open.stretchLost();
			this.open = null;
		}
	}

	private static MeasuredCpu requestOf(Object state) {
		SpanRecord record = (state instanceof SpanRecordRef ref) ? ref.get() : null;
		return (record != null) ? record.measuredCpu() : null;
	}

}
