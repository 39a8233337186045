package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;

/**
 * Where a request's time went, in the order a person reads it: on a CPU, then waiting, by
 * what it waited on (socket I/O by peer, file I/O, locks, parks, sleeps, GC pauses), and
 * what none of these accounts for, said as such. The parts add up to the duration: what
 * is left is {@link #unaccountedNanos() unaccounted}, never negative; when the parts add
 * up to more (work on several threads at once, or the CPU estimate above the truth) the
 * excess is {@link #overlapNanos() said} rather than printed as a negative remainder.
 * <p>
 * Waits are read from the leaf frames of {@code WAIT} samples ({@link WaitKind}), each
 * one wait weighed by its nanoseconds; CPU is the CPU samples times the sampling
 * interval, an estimate, or read from the request's threads' CPU clocks.
 * <p>
 * Where the kernel's per-thread scheduler figures were read, one part more is measured:
 * {@link #coreWaitNanos() waiting for a core} (runnable, not running); with the CPU
 * clocks, another: {@link #shortWaitNanos() short waits}, the time the threads were
 * blocked that no recorded wait covers (waits under the recording threshold). A recorded
 * wait is timed until its thread runs again, so it includes the wait for a core that
 * ended it: where recorded waits exceed the time blocked, the excess is taken out of the
 * wait for a core rather than counted twice ({@link #coreWaitInWaitsNanos()}; with CPU
 * from samples the time blocked is the threads' time less that CPU and the wait for a
 * core, so the excess is as sure as the CPU estimate).
 */
public final class TimeBreakdown {

	/** Details (peers, files, monitors) named per category; the rest are added up. */
	public static final int TOP_DETAILS = 3;

	static final String OTHER_WAITS = "other";

	/** What the time runnable but not running is called. */
	public static final String CORE_WAIT = "waiting for a core";

	private final long durationNanos;

	private final long cpuNanos;

	private final boolean cpuMeasured;

	private final long profilerNanos;

	private final List<WaitCategory> waits;

	private final List<RoundTrips> roundTrips;

	/** The kernel's run-queue wait of the request's threads, negative where not read. */
	private final long runQueueNanos;

	/**
	 * Time its threads were blocked, negative where not read; an estimate where the CPU
	 * time is (see {@link dev.spanprofile.store.SpanCpuTime}).
	 */
	private final long blockedNanos;

	/** Why its work likely ran on other threads without it, or {@code null}. */
	private final String handOffNote;

	/** The container's CPU limit throttled the process around it; {@code null} if not. */
	private final Throttling throttling;

	/**
	 * How long its first thread waited for a core between its previous request and this
	 * one, outside the duration; negative where not read.
	 */
	private final long coreWaitBeforeNanos;

	/**
	 * The samples the CPU time was estimated from, as a range; {@code null} where it was
	 * measured, not sampled, or the count not said.
	 */
	private final CpuRange cpuRange;

	/** How many requests it adds up: one, unless {@link #sums} says more. */
	private final long requests;

	/**
	 * For a breakdown of several requests, each request's parts added up (which the sums
	 * of the whole cannot give back); {@code null} for one request.
	 */
	private final TimeBreakdownSum.Summed sums;

	/** The parts, with nothing said beside them. */
	TimeBreakdown(long durationNanos, long cpuNanos, boolean cpuMeasured, long profilerNanos, List<WaitCategory> waits,
			List<RoundTrips> roundTrips, long runQueueNanos, long blockedNanos, long requests,
			TimeBreakdownSum.Summed sums) {
		this.requests = requests;
		this.sums = sums;
		this.durationNanos = durationNanos;
		this.cpuNanos = cpuNanos;
		this.cpuMeasured = cpuMeasured;
		this.profilerNanos = profilerNanos;
		this.waits = waits;
		this.roundTrips = roundTrips;
		boolean scheduled = runQueueNanos >= 0 && blockedNanos >= 0;
		this.runQueueNanos = scheduled ? runQueueNanos : -1;
		this.blockedNanos = scheduled ? blockedNanos : -1;
		this.cpuRange = null;
		this.handOffNote = null;
		this.throttling = null;
		this.coreWaitBeforeNanos = -1;
	}

	/** The parts of {@code parts}, with these said beside them. */
	private TimeBreakdown(TimeBreakdown parts, CpuRange cpuRange, String handOffNote, Throttling throttling,
			long coreWaitBeforeNanos) {
		this.durationNanos = parts.durationNanos;
		this.cpuNanos = parts.cpuNanos;
		this.cpuMeasured = parts.cpuMeasured;
		this.profilerNanos = parts.profilerNanos;
		this.waits = parts.waits;
		this.roundTrips = parts.roundTrips;
		this.runQueueNanos = parts.runQueueNanos;
		this.blockedNanos = parts.blockedNanos;
		this.requests = parts.requests;
		this.sums = parts.sums;
		this.cpuRange = cpuRange;
		this.handOffNote = handOffNote;
		this.throttling = throttling;
		this.coreWaitBeforeNanos = coreWaitBeforeNanos;
	}

	/**
	 * This breakdown with the container's CPU throttling around the request, or as it is
	 * for {@code null} (not throttled, or not known). A figure of its own, beside the
	 * parts: the kernel counts it for the whole process, and a throttled thread waits for
	 * a core, so its time is already in {@link #coreWaitNanos()} or unaccounted.
	 */
	public TimeBreakdown withThrottling(Throttling throttling) {
		return new TimeBreakdown(this, this.cpuRange, this.handOffNote, throttling, this.coreWaitBeforeNanos);
	}

	/**
	 * How much the container's CPU limit throttled the process around the request, or
	 * {@code null} when it did not (or there is no limit, or no way to know).
	 */
	public Throttling throttling() {
		return this.throttling;
	}

	/**
	 * This breakdown with how long the request's first thread waited for a core between
	 * leaving its previous request and entering this one ({@code -1}: not read): outside
	 * the duration, so beside the parts rather than one of them. Taken only where the
	 * kernel's figures were read inside the request too.
	 */
	public TimeBreakdown withCoreWaitBefore(long nanos) {
		if (nanos < 0 || !scheduled() || this.sums != null) {
			return this;
		}
		return new TimeBreakdown(this, this.cpuRange, this.handOffNote, this.throttling, nanos);
	}

	/**
	 * How long the request's first thread waited for a core to take it, between leaving
	 * its previous request and entering this one: before the request's duration began (on
	 * a busy machine, the thread's wake-up once the request arrived), so its client
	 * waited that much longer than the duration says. Negative where not read.
	 */
	public long coreWaitBeforeNanos() {
		return this.coreWaitBeforeNanos;
	}

	/**
	 * {@code its thread waited 2.1 ms for a core before the request started}, or
	 * {@code null} where not read.
	 */
	public String coreWaitBeforeText(DoubleFunction<String> millis) {
		return (this.coreWaitBeforeNanos >= 0)
				? "before it started, its thread waited " + millis.apply(this.coreWaitBeforeNanos / 1e6)
						+ " for a core (since the thread's previous request; not part of the duration)"
				: null;
	}

	/**
	 * @param durationNanos the span's duration (so far, for a running span)
	 * @param cpuNanos CPU time estimated from its samples, or a negative value when CPU
	 * is not sampled
	 * @param profilerNanos CPU time its threads spent in the profiler's own code (see
	 * {@link ProfilerWork})
	 * @param waits its wait samples, or {@code null} when waits are not recorded
	 */
	public static TimeBreakdown of(long durationNanos, long cpuNanos, long profilerNanos, StackTree waits,
			FrameTable frames) {
		return of(durationNanos, cpuNanos, false, profilerNanos, waits, frames);
	}

	/**
	 * As {@link #of(long, long, long, StackTree, FrameTable)}, where {@code cpuMeasured}
	 * says that {@code cpuNanos} was read from the request's threads' CPU clocks rather
	 * than estimated from samples.
	 */
	public static TimeBreakdown of(long durationNanos, long cpuNanos, boolean cpuMeasured, long profilerNanos,
			StackTree waits, FrameTable frames) {
		return of(durationNanos, cpuNanos, cpuMeasured, profilerNanos, -1, -1, waits, frames);
	}

	/**
	 * As {@link #of(long, long, boolean, long, StackTree, FrameTable)}, with the kernel's
	 * figures: {@code runQueueNanos} runnable but not running, {@code blockedNanos}
	 * neither running nor runnable (each negative where not read; from the same stretches
	 * as a measured CPU time, else estimated with the CPU estimate).
	 */
	public static TimeBreakdown of(long durationNanos, long cpuNanos, boolean cpuMeasured, long profilerNanos,
			long runQueueNanos, long blockedNanos, StackTree waits, FrameTable frames) {
		return new TimeBreakdown(durationNanos, cpuNanos, cpuMeasured && cpuNanos >= 0, profilerNanos,
				(waits != null) ? categories(waits, frames) : null,
				(waits != null) ? roundTrips(waits, frames) : List.of(), runQueueNanos, blockedNanos, 1, null);
	}

	/**
	 * This breakdown with a note on work that likely left the request's thread without
	 * its context ({@link HandOffNote}), when it reads like that.
	 * @param handOff the switch that keeps the context from following the request's work,
	 * and where it is off, as the application's framework knows it; {@code null} when
	 * none is known to be off
	 * @param intervalNanos the sampling interval: a request shorter than a few of them
	 * has no samples anyway
	 */
	public TimeBreakdown withHandOff(String handOff, long intervalNanos) {
		String note = HandOffNote.of(this, handOff, intervalNanos);
		return (note != null) ? new TimeBreakdown(this, this.cpuRange, note, this.throttling, this.coreWaitBeforeNanos)
				: this;
	}

	/**
	 * Why most of the request's time is unaccounted for or spent waiting on other threads
	 * while none of its CPU shows: the setting that keeps its context from following its
	 * work, and where it is off; {@code null} when the breakdown does not read like that,
	 * or no setting is known to be off.
	 */
	public String handOffNote() {
		return this.handOffNote;
	}

	/**
	 * Where the time of {@code requests} requests went, from their parts added up request
	 * by request: see {@link TimeBreakdownSum}.
	 */
	public static TimeBreakdownSum ofRequests(long requests, long durationNanos) {
		return new TimeBreakdownSum(requests, durationNanos);
	}

	/**
	 * Socket reads by peer: each recorded read blocked at least the socket threshold
	 * waiting for the peer's answer, which is what a round trip to a database or a
	 * downstream service is. Most trips first, then the longest.
	 */
	private static List<RoundTrips> roundTrips(StackTree waits, FrameTable frames) {
		Map<String, long[]> byPeer = new LinkedHashMap<>();
		waits.visit((StackTree.EventsVisitor) (path, depth, total, self, selfEvents) -> {
			if (selfEvents == 0) {
				return;
			}
			int leaf = path[depth - 1];
			String name = frames.name(leaf);
			if (frames.kind(leaf) != FrameKind.WAIT || WaitKind.ofFrameName(name) != WaitKind.SOCKET_READ) {
				return;
			}
			String peer = WaitKind.detailOfFrameName(name);
			long[] sums = byPeer.computeIfAbsent((peer != null) ? peer : "an unnamed peer", (key) -> new long[2]);
			sums[0] += selfEvents;
			sums[1] += self;
		});
		return sortedTrips(byPeer);
	}

	static List<RoundTrips> sortedTrips(Map<String, long[]> byPeer) {
		List<RoundTrips> trips = new ArrayList<>();
		byPeer.forEach((peer, sums) -> trips.add(new RoundTrips(peer, sums[0], sums[1])));
		trips.sort(Comparator.comparingLong(RoundTrips::count)
			.thenComparingLong(RoundTrips::nanos)
			.reversed()
			.thenComparing(RoundTrips::peer));
		return List.copyOf(trips);
	}

	private static List<WaitCategory> categories(StackTree waits, FrameTable frames) {
		Map<String, Map<String, long[]>> byCategory = new LinkedHashMap<>();
		waits.visit((StackTree.EventsVisitor) (path, depth, total, self, selfEvents) -> {
			if (self == 0) {
				return;
			}
			int leaf = path[depth - 1];
			String name = frames.name(leaf);
			WaitKind kind = (frames.kind(leaf) == FrameKind.WAIT) ? WaitKind.ofFrameName(name) : null;
			String category = (kind != null) ? kind.category() : OTHER_WAITS;
			String detail = (kind != null) ? WaitKind.detailOfFrameName(name) : null;
			long[] sums = byCategory.computeIfAbsent(category, (key) -> new LinkedHashMap<>())
				.computeIfAbsent((detail != null) ? detail : "", (key) -> new long[2]);
			sums[0] += self;
			sums[1] += selfEvents;
		});
		return sortedCategories(byCategory);
	}

	static List<WaitCategory> sortedCategories(Map<String, Map<String, long[]>> byCategory) {
		List<WaitCategory> categories = new ArrayList<>();
		byCategory.forEach((category, details) -> categories.add(WaitCategory.of(category, details)));
		categories.sort(Comparator.comparingLong(WaitCategory::nanos).reversed().thenComparing(WaitCategory::name));
		return List.copyOf(categories);
	}

	public long durationNanos() {
		return this.durationNanos;
	}

	/**
	 * Whether {@link #cpuNanos()} was read from the request's threads' CPU clocks, not
	 * estimated from samples.
	 */
	public boolean cpuMeasured() {
		return this.cpuMeasured;
	}

	/** Whether CPU is sampled, so that {@link #cpuNanos()} means something. */
	public boolean cpuSampled() {
		return this.cpuNanos >= 0;
	}

	public long cpuNanos() {
		return Math.max(0, this.cpuNanos);
	}

	/**
	 * This breakdown with the number of samples an estimated CPU time rests on,
	 * {@code sampleNanos} each, so that it is given as a range ({@link #cpuLowNanos()} to
	 * {@link #cpuHighNanos()}); itself where CPU was measured or not sampled.
	 */
	public TimeBreakdown cpuSamples(long samples, long sampleNanos) {
		if (cpuSampled() && !this.cpuMeasured && samples >= 0 && sampleNanos > 0) {
			return new TimeBreakdown(this, new CpuRange(samples, sampleNanos), this.handOffNote, this.throttling,
					this.coreWaitBeforeNanos);
		}
		return this;
	}

	/**
	 * Whether the CPU time is an estimate from a known number of samples, which
	 * {@link #cpuLowNanos()} and {@link #cpuHighNanos()} bound.
	 */
	public boolean cpuEstimated() {
		return this.cpuRange != null;
	}

	/** The samples the CPU estimate rests on; negative where not an estimate. */
	public long cpuSampleCount() {
		return cpuEstimated() ? this.cpuRange.samples() : -1;
	}

	/** The low end of the CPU estimate's range; the CPU time where not an estimate. */
	public long cpuLowNanos() {
		return cpuEstimated() ? this.cpuRange.lowNanos() : cpuNanos();
	}

	/** The high end of the CPU estimate's range; the CPU time where not an estimate. */
	public long cpuHighNanos() {
		return cpuEstimated() ? this.cpuRange.highNanos() : cpuNanos();
	}

	/**
	 * {@code 1 sample at 20.0 ms: 0.0 ms to 40.0 ms}, or {@code null} where the CPU time
	 * is not an estimate from samples.
	 */
	public String cpuRangeText(DoubleFunction<String> millis) {
		return cpuEstimated() ? this.cpuRange.text(millis) : null;
	}

	public long profilerNanos() {
		return this.profilerNanos;
	}

	/**
	 * Whether waits are recorded, so that an empty {@link #waits()} means the request did
	 * not wait.
	 */
	public boolean waitsRecorded() {
		return this.waits != null;
	}

	/** The waits by category, longest first; empty when none was recorded. */
	public List<WaitCategory> waits() {
		return (this.waits != null) ? this.waits : List.of();
	}

	/**
	 * Round trips to each peer (socket reads that waited for an answer), most first;
	 * empty when none was recorded.
	 */
	public List<RoundTrips> roundTrips() {
		return this.roundTrips;
	}

	/**
	 * {@code 42 round trips to PostgreSQL petclinic at db:5432 (336 ms)} for each peer,
	 * most first, {@code millis} formatting each time; {@code null} when there were none.
	 */
	public String roundTripsText(DoubleFunction<String> millis) {
		if (this.roundTrips.isEmpty()) {
			return null;
		}
		StringBuilder text = new StringBuilder();
		for (RoundTrips trips : this.roundTrips) {
			text.append((text.length() > 0) ? ", " : "")
				.append((this.sums != null) ? trips.perRequestText(this.requests, millis) : trips.text(millis));
		}
		return text.toString();
	}

	public long waitNanos() {
		long sum = 0;
		for (WaitCategory category : waits()) {
			sum += category.nanos();
		}
		return sum;
	}

	/**
	 * Whether the kernel's figures were read: {@link #coreWaitNanos()} is measured, not
	 * zero for want of a measure (and {@link #shortWaitNanos()} where
	 * {@link #shortWaitsMeasured()}).
	 */
	public boolean scheduled() {
		return (this.sums != null) ? this.sums.scheduledRequests() > 0 : this.runQueueNanos >= 0;
	}

	/** How many requests this adds up: one for a request's own breakdown. */
	public long requests() {
		return this.requests;
	}

	/** Whether this adds up several requests (a name, a selection, a side). */
	public boolean summed() {
		return this.sums != null;
	}

	/**
	 * Of {@link #requests()}, how many had their time waiting for a core and blocked read
	 * from the kernel.
	 */
	public long scheduledRequests() {
		return (this.sums != null) ? this.sums.scheduledRequests() : (scheduled() ? 1 : 0);
	}

	/**
	 * How long the request's threads were runnable but not running, less what of it fell
	 * inside recorded waits ({@link #coreWaitInWaitsNanos()}); zero where not measured.
	 */
	public long coreWaitNanos() {
		if (this.sums != null) {
			return this.sums.coreWaitNanos();
		}
		return scheduled() ? this.runQueueNanos - coreWaitInWaitsNanos() : 0;
	}

	/**
	 * The part of the kernel's run-queue wait counted in recorded waits already: what
	 * they add up to beyond the time the threads were blocked (a wait is timed until its
	 * thread runs again).
	 */
	public long coreWaitInWaitsNanos() {
		if (this.sums != null) {
			return this.sums.coreWaitInWaitsNanos();
		}
		return scheduled() ? coreWaitInWaits(this.runQueueNanos, this.blockedNanos, waitNanos()) : 0;
	}

	/**
	 * Of {@code runQueueNanos} waiting for a core, the part {@code waitNanos} of recorded
	 * waits hold already: what they add up to beyond the {@code blockedNanos} the threads
	 * were blocked (a wait is timed until its thread runs again).
	 */
	public static long coreWaitInWaits(long runQueueNanos, long blockedNanos, long waitNanos) {
		return Math.min(runQueueNanos, Math.max(0, waitNanos - blockedNanos));
	}

	/**
	 * The time the request's threads were blocked that no recorded wait covers: waits
	 * shorter than the recording threshold (all of it where waits are not recorded); zero
	 * where not measured.
	 */
	public long shortWaitNanos() {
		if (this.sums != null) {
			return this.sums.shortWaitNanos();
		}
		return (scheduled() && this.cpuMeasured) ? Math.max(0, this.blockedNanos - waitNanos()) : 0;
	}

	/**
	 * Whether {@link #shortWaitNanos()} is measured: the kernel's figures were read with
	 * the CPU clocks (with CPU from samples, the time blocked is an estimate, whose error
	 * would pass for short waits).
	 */
	public boolean shortWaitsMeasured() {
		return scheduled() && (this.cpuMeasured || (this.sums != null && this.sums.shortWaitNanos() > 0));
	}

	/** What {@link #shortWaitNanos()} is called. */
	public String shortWaitsName() {
		return waitsRecorded() ? "short waits" : "off-CPU waits";
	}

	private long accountedNanos() {
		return cpuNanos() + this.profilerNanos + waitNanos() + coreWaitNanos() + shortWaitNanos();
	}

	/**
	 * The duration that neither CPU nor a wait (recorded, short, or for a core) explains;
	 * zero when they explain it all or more.
	 */
	public long unaccountedNanos() {
		if (this.sums != null) {
			return this.sums.unaccountedNanos();
		}
		return Math.max(0, this.durationNanos - accountedNanos());
	}

	/**
	 * How much CPU and waits add up to beyond the duration (threads working or waiting at
	 * the same time).
	 */
	public long overlapNanos() {
		if (this.sums != null) {
			return this.sums.overlapNanos();
		}
		return Math.max(0, accountedNanos() - this.durationNanos);
	}

	/**
	 * Waits explain more of the duration than CPU does: the graph of waits is the one
	 * that tells why it took so long.
	 */
	public boolean mostlyWaiting() {
		return waitNanos() > cpuNanos();
	}

	/** As a span's JSON carries it. */
	public TimeBreakdownJson json() {
		return TimeBreakdownJson.of(this);
	}

	/** Why the parts exceed the duration, in words. */
	public String overlapNote() {
		if (this.sums != null) {
			return "in some requests CPU and waits add up to more than their duration, "
					+ CpuShare.millis(overlapNanos() / 1e6) + " more in all: their work ran or waited on several "
					+ "threads at once"
					+ (this.cpuMeasured ? "" : ", or the CPU estimate from samples is above the truth")
					+ "; the other requests' unaccounted time is not reduced by it";
		}
		return "CPU and waits add up to " + CpuShare.millis(overlapNanos() / 1e6) + " more than the duration: "
				+ "the request's work ran or waited on several threads at once"
				+ (this.cpuMeasured ? "" : ", or the CPU estimate from samples is above the truth");
	}

	/**
	 * One line for a log:
	 * {@code CPU 60.0 ms, socket I/O 1,420 ms (127.0.0.1:5432 1,400 ms), lock 12.0 ms,
	 * unaccounted 5.0 ms}, with {@code millis} formatting each time; where the kernel's
	 * figures were read, {@code waiting for a core} after the CPU and {@code short waits}
	 * after the recorded ones.
	 */
	public String summary(DoubleFunction<String> millis) {
		StringBuilder line = new StringBuilder();
		if (cpuSampled()) {
			line.append("CPU ").append(millis.apply(this.cpuNanos / 1e6));
		}
		if (scheduled()) {
			line.append((line.length() > 0) ? ", " : "")
				.append(CORE_WAIT)
				.append(' ')
				.append(millis.apply(coreWaitNanos() / 1e6));
		}
		for (WaitCategory category : waits()) {
			line.append((line.length() > 0) ? ", " : "")
				.append(category.name())
				.append(' ')
				.append(millis.apply(category.nanos() / 1e6));
			if (!category.on().isEmpty()) {
				line.append(" (");
				for (int i = 0; i < category.on().size(); i++) {
					WaitCategory.Detail detail = category.on().get(i);
					line.append((i > 0) ? ", " : "")
						.append(detail.detail())
						.append(' ')
						.append(millis.apply(detail.nanos() / 1e6));
				}
				line.append((category.others() != null) ? ", ..." : "").append(')');
			}
		}
		if (shortWaitsMeasured()) {
			line.append((line.length() > 0) ? ", " : "")
				.append(shortWaitsName())
				.append(' ')
				.append(millis.apply(shortWaitNanos() / 1e6));
		}
		if (this.profilerNanos > 0) {
			line.append((line.length() > 0) ? ", " : "")
				.append("profiler ")
				.append(millis.apply(this.profilerNanos / 1e6));
		}
		line.append((line.length() > 0) ? ", " : "")
			.append("unaccounted ")
			.append(millis.apply(unaccountedNanos() / 1e6));
		if (overlapNanos() > 0) {
			line.append(" (CPU and waits exceed the duration by ")
				.append(millis.apply(overlapNanos() / 1e6))
				.append(": threads at once)");
		}
		if (!this.roundTrips.isEmpty()) {
			line.append("; ").append(roundTripsText(millis));
		}
		if (this.coreWaitBeforeNanos >= 0) {
			line.append("; ").append(coreWaitBeforeText(millis));
		}
		if (this.throttling != null) {
			line.append("; ").append(this.throttling.text(millis));
		}
		return line.toString();
	}

	/**
	 * The container's CPU limit throttled the process between two readings of its control
	 * group's counts that cover the request: the process's figures, not the request's own
	 * share.
	 *
	 * @param periods enforcement periods in which the process was throttled
	 * @param nanos how long it was throttled
	 * @param overNanos the stretch between the two readings
	 */
	public record Throttling(long periods, long nanos, long overNanos) {

		/**
		 * {@code throttled by the container's CPU limit: 12 periods, 85.0 ms (the
		 * process, in the 3.0 s around the request)}.
		 */
		public String text(DoubleFunction<String> millis) {
			return "throttled by the container's CPU limit: " + this.periods
					+ ((this.periods == 1) ? " period, " : " periods, ") + millis.apply(this.nanos / 1e6)
					+ " (the process, in the " + millis.apply(this.overNanos / 1e6) + " around the request)";
		}

	}

	/**
	 * Round trips to one peer: socket reads that waited for its answer.
	 *
	 * @param peer as the application named it ({@code PostgreSQL petclinic at db:5432}),
	 * else {@code host:port}
	 * @param count how many
	 * @param nanos the time they waited
	 */
	public record RoundTrips(String peer, long count, long nanos) {

		/** {@code 4 round trips to db:5432 (33.1 ms)}. */
		public String text(DoubleFunction<String> millis) {
			return this.count + ((this.count == 1) ? " round trip to " : " round trips to ") + this.peer + " ("
					+ millis.apply(this.nanos / 1e6) + ")";
		}

		/** Round trips per request of {@code requests}. */
		public double perRequest(long requests) {
			return (requests > 0) ? (double) this.count / requests : 0;
		}

		/**
		 * {@code 4.1 round trips a request to db:5432 (33.1 ms a request; 412 in all)}.
		 */
		public String perRequestText(long requests, DoubleFunction<String> millis) {
			return String.format(Locale.ROOT, "%.1f", perRequest(requests)) + " round trips a request to " + this.peer
					+ " (" + millis.apply(this.nanos / 1e6 / Math.max(1, requests)) + " a request; " + this.count
					+ " in all)";
		}

	}

}
