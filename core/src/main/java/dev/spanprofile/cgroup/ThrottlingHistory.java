package dev.spanprofile.cgroup;

import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The container's CPU throttling over time: its {@link CpuStatFile} read once per
 * collection ({@link #read}), each reading kept with its time in a ring of
 * {@value #READINGS}, so that a request's window is looked up without a file read per
 * request ({@link #during}). The counts are the process's control group's, not the
 * request's own: a request is told that the group was throttled between the readings
 * around it, and how much.
 * <p>
 * Read by the collector thread, looked up from any thread: readings are published by one
 * volatile write of the count.
 */
public final class ThrottlingHistory {

	private static final System.Logger logger = System.getLogger(ThrottlingHistory.class.getName());

	/** About 50 minutes of collections at the default dump interval of 3 s. */
	static final int READINGS = 1024;

	/** Where there is nothing to read: every look-up finds nothing. */
	public static final ThrottlingHistory NONE = new ThrottlingHistory(null, () -> 0);

	private final CpuStatFile file;

	private final LongSupplier epochNanos;

	private final long[] times = new long[READINGS];

	private final long[] periods = new long[READINGS];

	private final long[] nanos = new long[READINGS];

	/** Readings made so far; the latest is at {@code (count - 1) % READINGS}. */
	private volatile long count;

	ThrottlingHistory(CpuStatFile file, LongSupplier epochNanos) {
		this.file = file;
		this.epochNanos = epochNanos;
	}

	/**
	 * The history of the process's control group found under {@code root} ({@code /} in
	 * production), on the clock {@code epochNanos} the requests' times use; where none is
	 * found, {@link #NONE} after one DEBUG line.
	 */
	public static ThrottlingHistory of(Path root, LongSupplier epochNanos) {
		CpuStatFile file = CpuStatFile.locate(root);
		if (file == null) {
			logger.log(System.Logger.Level.DEBUG,
					"spanprofile: no control group cpu.stat with throttling counts under {0}: "
							+ "CPU throttling by a container limit is not reported",
					root);
			return NONE;
		}
		logger.log(System.Logger.Level.DEBUG, "spanprofile: CPU throttling read from {0}", file.path());
		return new ThrottlingHistory(file, epochNanos);
	}

	/** Whether there is a file to read. */
	public boolean available() {
		return this.file != null;
	}

	/** Collector thread only: read the counts now and keep them. */
	public void read() {
		if (this.file == null) {
			return;
		}
		long now = this.epochNanos.getAsLong();
		CpuStatFile.Counts counts = this.file.read();
		if (counts == null) {
			return;
		}
		long next = this.count;
		int slot = (int) (next % READINGS);
		this.times[slot] = now;
		this.periods[slot] = counts.periods();
		this.nanos[slot] = counts.nanos();
		this.count = next + 1;
	}

	/**
	 * How much the group was throttled between the latest reading at or before
	 * {@code startEpochNanos} and the first at or after {@code endEpochNanos} (the latest
	 * one, for a request that has not ended by then); {@code null} when it was not
	 * throttled then, or when no readings bracket the window.
	 */
	public Throttled during(long startEpochNanos, long endEpochNanos) {
		long made = this.count;
		long oldest = Math.max(0, made - READINGS);
		long before = -1;
		long after = -1;
		for (long i = made - 1; i >= oldest; i--) {
			int slot = (int) (i % READINGS);
			long time = this.times[slot];
			if (time >= endEpochNanos) {
				after = i;
			}
			if (time <= startEpochNanos) {
				before = i;
				break;
			}
		}
		if (before < 0) {
			return null;
		}
		if (after < 0) {
			after = made - 1;
		}
		int from = (int) (before % READINGS);
		int to = (int) (after % READINGS);
		long periods = this.periods[to] - this.periods[from];
		long nanos = this.nanos[to] - this.nanos[from];
		long over = this.times[to] - this.times[from];
		// A reading made meanwhile may have overwritten the oldest slot read: give up
		// rather than mix readings.
		if (this.count - READINGS > before || periods <= 0 || nanos < 0 || over <= 0) {
			return null;
		}
		return new Throttled(periods, nanos, over);
	}

	/**
	 * The group was throttled around a request.
	 *
	 * @param periods enforcement periods throttled
	 * @param nanos time throttled
	 * @param overNanos between the two readings these come from, which cover the request
	 */
	public record Throttled(long periods, long nanos, long overNanos) {
	}

}
