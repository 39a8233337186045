package dev.spanprofile.attribution;

import java.util.function.Function;

import dev.spanprofile.store.MeasuredCpu;
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
 * <p>
 * It keeps requests by their local root's id, never their figures: a thread's stretch may
 * outlast its request in the store, and what a stretch closes is looked up as it closes
 * (a request let go of meanwhile is not measured further: it was handed on).
 */
final class ThreadCpuStretch {

	private static final long UNREAD = -1;

	/**
	 * The request (its local root's span id) the thread is in, measured since
	 * {@link #openedAt}; {@code null} outside one.
	 */
	private String open;

	/** The change point's time, CPU clock and run-queue wait where it was opened. */
	private long openedTime;

	private long openedAt;

	private long openedRunQueue;

	/**
	 * The request whose stretch the thread's last point closed, and the time and clocks
	 * there; {@code null} otherwise.
	 */
	private String closed;

	private long closedTime;

	private long closedAt;

	private long closedRunQueue;

	/**
	 * The thread's state changed to the request {@code now} ({@code null} outside one),
	 * whose figures are {@code nowCpu}, with its CPU clock and run-queue wait or -1, read
	 * at {@code time}; {@code cpuOf} finds a request's figures by its id while it is
	 * tracked.
	 */
	void changed(String now, MeasuredCpu nowCpu, long time, long cpuNanos, long runQueueNanos, boolean gapsKnown,
			Function<String, MeasuredCpu> cpuOf) {
		String closed = this.closed;
		this.closed = null;
		if (cpuNanos == ThreadActivity.CLOCK_CONTINUED) {
			if (now != null && now.equals(closed) && this.open == null) {
				// The stretch goes on: the next exit's clocks less the ones read where it
				// left count the rest.
				nowCpu.stretchOpened();
				open(now, this.closedTime, this.closedAt, this.closedRunQueue);
				return;
			}
			cpuNanos = UNREAD;
		}
		if (cpuNanos == UNREAD && runQueueNanos < 0) {
			if (!same(now, this.open)) {
				// Another request, or none, without the thread leaving spans: no clock
				// says where one ended.
				lose(cpuOf);
				if (now != null) {
					nowCpu.partUnmeasured();
				}
			}
			return;
		}
		if (this.open != null) {
			if (now == null || now.equals(this.open)) {
				boolean runQueueRead = runQueueNanos >= 0 && this.openedRunQueue >= 0;
				boolean cpuRead = cpuNanos >= 0 && this.openedAt >= 0;
				MeasuredCpu openCpu = (now != null) ? nowCpu : cpuOf.apply(this.open);
				if (openCpu != null) {
					openCpu.stretchClosed(cpuRead ? cpuNanos - this.openedAt : UNREAD,
							runQueueRead ? runQueueNanos - this.openedRunQueue : UNREAD, time - this.openedTime);
				}
				if (now == null) {
					this.closed = this.open;
					this.closedTime = time;
					this.closedAt = cpuNanos;
					this.closedRunQueue = runQueueNanos;
				}
				this.open = null;
			}
			else {
				lose(cpuOf);
			}
		}
		if (now != null) {
			boolean fromPrevious = gapsKnown && closed != null && !closed.equals(now) && runQueueNanos >= 0
					&& this.closedRunQueue >= 0;
			// The thread comes from its previous request with nothing in between: the
			// kernel's count since that exit is its wait for a core to take this one.
			// Not where untraced requests run unprofiled: one may have run in between
			// without a change point, and its waits would be counted here.
			nowCpu.waitedBeforeStart(time, fromPrevious ? runQueueNanos - this.closedRunQueue : UNREAD);
			nowCpu.stretchOpened();
			open(now, time, cpuNanos, runQueueNanos);
		}
	}

	private static boolean same(String request, String other) {
		return (request == null) ? other == null : request.equals(other);
	}

	private void open(String request, long time, long cpuNanos, long runQueueNanos) {
		this.open = request;
		this.openedTime = time;
		this.openedAt = cpuNanos;
		this.openedRunQueue = runQueueNanos;
	}

	/** What the thread did since the last point is unknown. */
	void lose(Function<String, MeasuredCpu> cpuOf) {
		this.closed = null;
		if (this.open != null) {
			MeasuredCpu openCpu = cpuOf.apply(this.open);
			if (openCpu != null) {
				openCpu.stretchLost();
			}
			this.open = null;
		}
	}

}
