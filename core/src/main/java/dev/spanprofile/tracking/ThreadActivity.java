package dev.spanprofile.tracking;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The change points of one thread: every time the active span on the thread changes, the
 * owning thread appends (timestamp, span) to a fixed ring. One writer (the owning
 * thread), one reader (the collector), no locks and no allocation on the write path.
 * <p>
 * The reader copies what was published since its last visit. When the writer laps the
 * reader (more changes between two drains than the ring holds) the lost stretch is
 * reported as a gap, so that samples falling in it are left unattributed rather than
 * given to a wrong span.
 */
public final class ThreadActivity {

	/**
	 * A point's clocks where the thread came back into the span it left at its previous
	 * point, soon after: not read, its stretch in the request goes on from the clock read
	 * where it left.
	 */
	public static final long CLOCK_CONTINUED = -2;

	private static final VarHandle PUBLISHED;

	static {
		try {
			PUBLISHED = MethodHandles.lookup().findVarHandle(ThreadActivity.class, "published", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final long threadId;

	private final String threadName;

	private final java.lang.ref.WeakReference<Thread> thread;

	private final long[] times;

	private final Object[] spans;

	/**
	 * The thread's CPU clock at each point where it entered or left a span,
	 * {@link ThreadCpuClock#UNREAD} elsewhere.
	 */
	private final long[] cpuTimes;

	/**
	 * The thread's run-queue wait ({@link RunQueueClock}) at each point where it entered
	 * or left a span and the figure was read (with the CPU clock or without it),
	 * {@link RunQueueClock#UNREAD} elsewhere.
	 */
	private final long[] runQueueTimes;

	/**
	 * How long before the point's time its clocks were read (the reads' own length, and
	 * any wait for a core on the way out of them), in nanoseconds.
	 */
	private final int[] readLeads;

	private final int mask;

	/**
	 * Sequence number of the next entry to write; written by the owner only, read by the
	 * collector.
	 */
	@SuppressWarnings("unused")
	private volatile long published;

	/**
	 * Owner-side: the span of the last recorded point, and the recording session it was
	 * recorded in.
	 */
	Object lastSpan;

	int lastSession;

	/**
	 * Owner-side: the span the thread left at its last point, where its clocks were read
	 * then ({@code null} otherwise), and when; for {@link ActivationRecorder} to tell a
	 * quick return into it.
	 */
	Object leftSpan;

	long leftAt;

	/**
	 * Owner-side: the run-queue figure the thread last read, and whether its last
	 * measured point was a quick return that read nothing ({@link #CLOCK_CONTINUED}); for
	 * {@link ActivationRecorder} to let a quick second exit stand on the first exit's
	 * figure.
	 */
	long leftRunQueue = RunQueueClock.UNREAD;

	boolean resumed;

	/**
	 * Owner-side: the unsampled request entered on this thread, recorded in place of "no
	 * span" while no recorded span is active (its own unsampled spans included).
	 */
	UnsampledRequest unsampled;

	/**
	 * Owner-side: what the thread works on outside any span and unsampled request (a step
	 * of the application's start), recorded in place of "no span"; {@code null} for
	 * nothing.
	 */
	Object background;

	/**
	 * Owner-side, made at the thread's first read: its run-queue figure's open file.
	 */
	RunQueueClock runQueueClock;

	/**
	 * Owner-side: how many scopes of {@link #unsampled} are open on this thread (nested
	 * scopes of one observation each enter it).
	 */
	int unsampledDepth;

	/**
	 * Written by the owner, read by whoever installs a thread listener: whether the last
	 * recorded point had a span (drives wall-clock thread filters). Volatile for the
	 * handshake described in {@link ActivationListeners#setThreadListener}; written only
	 * when the thread enters or leaves a span.
	 */
	volatile boolean inSpan;

	/**
	 * Virtual threads get small rings and are never registered with native thread
	 * filters.
	 */
	final boolean virtual;

	/**
	 * The first sequence number not yet drained: written by the collector, read by the
	 * owner too, to tell when its ring is half full between two drains.
	 */
	private volatile long drained;

	private final int halfCapacity;

	/**
	 * Collector-side: time of the last drained point, where a gap starts when entries
	 * were lost.
	 */
	private long lastDrainedTime = Long.MIN_VALUE;

	ThreadActivity(Thread owner, int capacity) {
		if (Integer.bitCount(capacity) != 1) {
			throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
		}
		this.threadId = owner.getId();
		this.threadName = owner.getName();
		this.thread = new java.lang.ref.WeakReference<>(owner);
		this.times = new long[capacity];
		this.spans = new Object[capacity];
		this.cpuTimes = new long[capacity];
		this.runQueueTimes = new long[capacity];
		this.readLeads = new int[capacity];
		this.mask = capacity - 1;
		this.halfCapacity = Math.max(1, capacity >>> 1);
		this.virtual = VirtualThreads.isVirtual(owner);
	}

	/** Java thread id of the owning thread, the key samples are joined on. */
	public long threadId() {
		return this.threadId;
	}

	public String threadName() {
		return this.threadName;
	}

	/** The owning thread, or {@code null} once it has been collected. */
	Thread owner() {
		return this.thread.get();
	}

	boolean isOwnerAlive() {
		Thread owner = this.thread.get();
		return owner != null && owner.isAlive();
	}

	/**
	 * Owner thread only: the span now active on this thread ({@code null} for none) since
	 * {@code time}, and the thread's CPU clock and run-queue wait then
	 * ({@link ThreadCpuClock#UNREAD} when not read), read from {@code readLead}
	 * nanoseconds before {@code time} on.
	 * @return whether this point filled half the ring since the last drain: the collector
	 * is to drain before its usual time, or the writer may lap it
	 */
	boolean record(long time, Object span, long cpuTime, long runQueueTime, long readLead) {
		long seq = (long) PUBLISHED.getOpaque(this);
		int slot = (int) (seq & this.mask);
		// The publication of seq (end of the previous record) must be visible before this
		// slot is overwritten: a reader that sees the overwrite then also sees seq and
		// discards the old entry. Free on x86.
		VarHandle.storeStoreFence();
		this.times[slot] = time;
		this.spans[slot] = span;
		this.cpuTimes[slot] = cpuTime;
		this.runQueueTimes[slot] = runQueueTime;
		this.readLeads[slot] = (int) Math.min(Integer.MAX_VALUE, Math.max(0, readLead));
		PUBLISHED.setRelease(this, seq + 1);
		return seq + 1 - this.drained == this.halfCapacity;
	}

	/**
	 * Any thread, once the owner is dead or recording stopped: close what the owner kept
	 * open for its reads (a live owner opens it again at its next read).
	 */
	void release() {
		RunQueueClock clock = this.runQueueClock;
		if (clock != null) {
			clock.close();
		}
	}

	/** Points the ring holds. */
	int capacity() {
		return this.mask + 1;
	}

	/**
	 * Collector thread only: hand every change point published since the last call to
	 * {@code sink}, oldest first.
	 * @return how many points were published since the last call, those lapped included
	 */
	long drainTo(ChangePointSink sink) {
		long end = (long) PUBLISHED.getAcquire(this);
		long published = end - this.drained;
		if (published == 0) {
			return 0;
		}
		if (this.drained == 0) {
			sink.named(this.threadId, this.threadName);
		}
		int capacity = capacity();
		long start = Math.max(this.drained, end - capacity);
		int count = (int) (end - start);
		long[] copiedTimes = new long[count];
		Object[] copiedSpans = new Object[count];
		long[] copiedCpuTimes = new long[count];
		long[] copiedRunQueueTimes = new long[count];
		int[] copiedReadLeads = new int[count];
		for (int i = 0; i < count; i++) {
			int slot = (int) ((start + i) & this.mask);
			copiedTimes[i] = this.times[slot];
			copiedSpans[i] = this.spans[slot];
			copiedCpuTimes[i] = this.cpuTimes[slot];
			copiedRunQueueTimes[i] = this.runQueueTimes[slot];
			copiedReadLeads[i] = this.readLeads[slot];
		}
		// The writer may have lapped us while we copied. The copies must be complete
		// before its position is re-read, or a slot read after the re-read could hold a
		// newer entry than the position admits.
		VarHandle.acquireFence();
		long endAfterCopy = (long) PUBLISHED.getAcquire(this);
		// Entries up to endAfterCopy - capacity have been overwritten, and the writer may
		// be in the middle of overwriting the next one (for seq endAfterCopy) right now:
		// only what follows is intact.
		long firstIntact = Math.max(start, endAfterCopy - capacity + 1);
		if (firstIntact > this.drained) {
			sink.gap(this.threadId, this.lastDrainedTime == Long.MIN_VALUE ? Long.MIN_VALUE : this.lastDrainedTime + 1);
		}
		for (long seq = firstIntact; seq < end; seq++) {
			int i = (int) (seq - start);
			sink.changed(this.threadId, copiedTimes[i], copiedSpans[i], copiedCpuTimes[i], copiedRunQueueTimes[i],
					copiedTimes[i] - copiedReadLeads[i]);
			this.lastDrainedTime = copiedTimes[i];
		}
		this.drained = end;
		return published;
	}

	/** Receives drained change points. */
	public interface ChangePointSink {

		/**
		 * From {@code time} on, {@code span} (an OpenTelemetry SpanContext, a hex span
		 * id, or null) is active.
		 */
		void changed(long threadId, long time, Object span);

		/**
		 * As {@link #changed(long, long, Object)}, with the thread's CPU clock at that
		 * point when the thread entered or left a span there ({@link #CLOCK_CONTINUED}
		 * where it came straight back into the span it left, {@code -1} otherwise).
		 */
		default void changed(long threadId, long time, Object span, long threadCpuNanos) {
			changed(threadId, time, span);
		}

		/**
		 * As {@link #changed(long, long, Object, long)}, with the thread's run-queue wait
		 * so far (time runnable but not running, {@code -1} where not read, or
		 * {@link #CLOCK_CONTINUED} with the CPU clock), and when that figure was read
		 * ({@code System.nanoTime()}, at or before {@code time}): a stretch's length runs
		 * from that read to the next, so that a wait for a core on the way out of the
		 * read counts in both figures or in neither.
		 */
		default void changed(long threadId, long time, Object span, long threadCpuNanos, long runQueueNanos,
				long readAt) {
			changed(threadId, time, span, threadCpuNanos);
		}

		/**
		 * From {@code time} on, what is active on the thread is unknown until the next
		 * change point.
		 */
		void gap(long threadId, long time);

		/**
		 * The thread's name, told before its first change point, for views that show
		 * threads.
		 */
		default void named(long threadId, String threadName) {
		}

		/** The thread has died and all its points were drained. */
		default void threadEnded(long threadId) {
		}

	}

}
