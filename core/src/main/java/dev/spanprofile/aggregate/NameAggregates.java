package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.TreeTrimmer;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;

/**
 * Profiles and latency per local-root span name, over a sliding window of time buckets,
 * independent of which spans the store still holds.
 * <p>
 * Every local root that ends counts in its name's latency statistics
 * ({@link LatencyStats}). Once its profile is complete (or when the store drops it
 * first), its samples of each kind are folded into the profile of its name, time bucket
 * (by end time) and latency band ({@link NameProfiles}), so a name's profile can later be
 * read for any part of the window and any duration range, and its slow spans compared
 * with its typical ones ({@link NameComparisons}).
 * <p>
 * Requests that tracing did not sample count the same way, marked as such: their latency
 * as they end ({@link #unsampledEnded}), their samples once complete
 * ({@link #foldUnsampled}). They have no span id, so are never among the slowest spans
 * listed.
 * <p>
 * Bounded three ways: at most {@link AggregateSettings#maxNames()} names (later ones
 * count as {@link AggregateSettings#OTHER}), at most
 * {@link AggregateSettings#maxStacks()} stacks per name and bucket, and
 * {@link AggregateSettings#maxBytes()} overall, beyond which the oldest buckets lose
 * their stacks but keep their statistics. Locks, always taken in this order: the names
 * (to create or sweep one), a name's aggregate (its statistics), the profiles.
 */
public final class NameAggregates {

	/**
	 * The frame thin branches are folded into, in a bucket and in a merged profile alike.
	 */
	static final String TRIMMED_FRAME = "[trimmed]";

	private final AggregateSettings settings;

	private final BucketClock clock;

	private final TreeTrimmer trimmer;

	private final NameTable names;

	private final LatencyStats stats = new LatencyStats();

	private final NameProfiles profiles;

	private final NameComparisons comparisons;

	/** The CPU time a CPU sample stands for now; negative while CPU is not sampled. */
	private final LongSupplier cpuIntervalNanos;

	private volatile long lastSweepIndex = Long.MIN_VALUE;

	/** Aggregates whose breakdowns leave CPU out: as where CPU is not sampled. */
	public NameAggregates(AggregateSettings settings, FrameTable frames, LongSupplier clockEpochNanos) {
		this(settings, frames, clockEpochNanos, () -> -1);
	}

	/**
	 * @param cpuIntervalNanos the CPU time one CPU sample stands for, read as each
	 * request is folded (the sampler can change); negative while CPU is not sampled
	 */
	public NameAggregates(AggregateSettings settings, FrameTable frames, LongSupplier clockEpochNanos,
			LongSupplier cpuIntervalNanos) {
		this.settings = settings;
		this.cpuIntervalNanos = cpuIntervalNanos;
		this.clock = new BucketClock(clockEpochNanos, settings.bucket());
		this.trimmer = new TreeTrimmer(frames, TRIMMED_FRAME);
		this.names = new NameTable(settings);
		this.profiles = new NameProfiles(settings, frames, this.trimmer.placeholderFrame(), this.names.all(),
				() -> this.stats.bytes() + namesBytes());
		this.comparisons = new NameComparisons(settings, this.clock, this.trimmer, this.names, this.stats,
				this.profiles, this::tick);
	}

	public AggregateSettings settings() {
		return this.settings;
	}

	/** A name's requests against its other requests. */
	public NameComparisons comparisons() {
		return this.comparisons;
	}

	/** A local root ended: count it in its name's latency statistics. */
	public void spanEnded(String name, String spanId, long durationNanos, boolean error, long endEpochNanos) {
		long now = tick();
		long index = this.clock.indexOf(endEpochNanos);
		while (!this.stats.record(this.names.forRecording(name), index, now, spanId, durationNanos, error)) {
			// Retired by a sweep between the lookup and the lock: looked up again.
		}
	}

	/**
	 * A request that tracing did not sample ended: count it in its name's latency
	 * statistics.
	 */
	public void unsampledEnded(String name, long durationNanos, boolean error, long endEpochNanos) {
		spanEnded(name, null, durationNanos, error, endEpochNanos);
	}

	/**
	 * Fold an ended local root's samples (its whole local request) into its name's
	 * profile. Call once per root, when its profile is complete or it is about to be
	 * dropped.
	 */
	public void fold(SpanRecord root) {
		if (root.inFlight()) {
			return;
		}
		StackTree[] trees = InclusiveSamples.byKind(root);
		long durationNanos = root.durationNanos(root.endEpochNanos());
		long interval = this.cpuIntervalNanos.getAsLong();
		long cpuSamples = samples(trees, SampleKind.CPU);
		// The profiler's own samples stay in: splitting them out takes a tree per
		// request.
		SpanCpuTime cpu = (interval >= 0) ? SpanCpuTime.of(root, cpuSamples, 0, interval) : SpanCpuTime.NOT_SAMPLED;
		fold(root.name(), root.endEpochNanos(), "ERROR".equals(root.status()), false, trees,
				RequestFigures.of(durationNanos, cpu, cpuSamples, interval));
	}

	private static long samples(StackTree[] trees, SampleKind kind) {
		StackTree tree = trees[kind.ordinal()];
		return (tree != null) ? tree.totalSamples() : 0;
	}

	/**
	 * Fold the samples of a request that tracing did not sample, {@code trees} by
	 * {@link SampleKind#ordinal()} ({@code null} for a kind without any), into its name's
	 * profile, once every sample up to its end is joined; {@code error} marks a request
	 * that failed.
	 */
	public void foldUnsampled(String name, long durationNanos, long endEpochNanos, boolean error, StackTree[] trees) {
		long interval = this.cpuIntervalNanos.getAsLong();
		long cpuSamples = samples(trees, SampleKind.CPU);
		fold(name, endEpochNanos, error, true, trees, new RequestFigures(durationNanos,
				(interval >= 0) ? cpuSamples * interval : -1, false, (interval >= 0) ? cpuSamples : 0, -1, -1));
	}

	private void fold(String name, long endEpochNanos, boolean error, boolean unsampled, StackTree[] trees,
			RequestFigures request) {
		long now = tick();
		int band = LatencyBands.of(request.durationNanos());
		long index = this.clock.indexOf(endEpochNanos);
		while (!this.profiles.fold(this.names.forRecording(name), index, now, band, error, unsampled, trees, request)) {
			// Retired by a sweep between the lookup and the lock: looked up again.
		}
	}

	/** Approximate heap held by all aggregates. */
	public long approximateBytes() {
		return this.stats.bytes() + this.profiles.bytes() + namesBytes();
	}

	private long namesBytes() {
		return (long) this.names.size() * (160 + 16L * (this.settings.bucketCount() + 1));
	}

	/** Names with spans in the last {@code window}, busiest first. */
	public List<NameSummary> summaries(Duration window) {
		tick();
		List<NameSummary> result = new ArrayList<>();
		for (NameAggregate aggregate : this.names.all()) {
			NameSummary summary = summary(aggregate, window);
			if (summary.count() > 0 || summary.cpuSamples() + summary.wallSamples() > 0) {
				result.add(summary);
			}
		}
		result.sort(Comparator.comparingLong(NameSummary::count).reversed().thenComparing(NameSummary::name));
		return result;
	}

	/**
	 * One name's summary over the last {@code window}, or {@code null} for a name never
	 * seen (or expired).
	 */
	public NameSummary summary(String name, Duration window) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		return (aggregate != null) ? summary(aggregate, window) : null;
	}

	private NameSummary summary(NameAggregate aggregate, Duration window) {
		BucketClock.Range buckets = this.clock.last(window);
		LatencyStats.Latencies latencies = this.stats.over(aggregate, buckets);
		long[] samples = this.profiles.samples(aggregate, buckets);
		return new NameSummary(aggregate.name, latencies.count(), latencies.errors(), latencies.percentileNanos(50),
				latencies.percentileNanos(90), latencies.percentileNanos(99), latencies.maxNanos(),
				samples[SampleKind.CPU.ordinal()], samples[SampleKind.WALL.ordinal()], latencies.slowest(),
				latencies.totalNanos(), samples[SampleKind.WAIT.ordinal()], latencies.unsampled(),
				samples[SampleKind.values().length]);
	}

	/**
	 * Where the time of a name's requests folded in the last {@code window} went, added
	 * up: the sums each cell already holds, so as cheap as a latency read (no profile is
	 * merged); {@code null} for a name never seen (or expired).
	 */
	public RequestsBreakdown breakdown(String name, Duration window) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		return (aggregate != null)
				? this.profiles.breakdown(aggregate, this.clock.last(window), Cells.bands(0, LatencyBands.count() - 1))
				: null;
	}

	/**
	 * A name's profile of {@code kind} over the last {@code window}, from spans whose
	 * duration falls in the bands covering {@code [minNanos, maxNanos)}; {@code null} for
	 * an unknown name.
	 */
	public NameProfile profile(String name, Duration window, SampleKind kind, long minNanos, long maxNanos) {
		return profile(name, window, kind, LatencySelection.durations(minNanos, maxNanos));
	}

	/**
	 * A name's profile of {@code kind} over the last {@code window} from the requests of
	 * {@code selection}, with the heatmap of the window read under the same lock, so that
	 * the selected cells add up to the profile's requests; {@code null} for an unknown
	 * name.
	 */
	public NameProfile profile(String name, Duration window, SampleKind kind, LatencySelection selection) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		if (aggregate == null) {
			return null;
		}
		BucketClock.Range range = this.clock.last(window);
		BucketClock.Range selected = selection.buckets(this.clock, range);
		LatencyHeatmap heatmap;
		NameProfiles.Merged merged;
		RequestsBreakdown breakdown;
		Cells cells = selection.cells(this.clock, range);
		synchronized (this.profiles) {
			heatmap = this.profiles.heatmap(aggregate, range, this.clock.bucketNanos());
			merged = this.comparisons.merge(aggregate, window, kind, cells);
			breakdown = this.profiles.breakdown(aggregate, range, cells);
		}
		long from = this.clock.startOf(selected.first());
		return new NameProfile(name, merged.tree(), merged.spans(), LatencyBands.lowerEdgeNanos(selection.fromBand()),
				LatencyBands.upperEdgeNanos(selection.toBand()), from,
				Math.max(from, this.clock.startOf(selected.last() + 1)), heatmap, merged.unsampled(), breakdown);
	}

	/**
	 * Whether {@code selection}'s instants cover any bucket of the last {@code window}.
	 */
	public boolean selectsAnyBucket(Duration window, LatencySelection selection) {
		BucketClock.Range buckets = selection.buckets(this.clock, this.clock.last(window));
		return buckets.first() <= buckets.last();
	}

	/**
	 * Each p99 of a name's spans per bucket of the last {@code window}, oldest first; -1
	 * where none ended.
	 */
	public long[] p99PerBucket(String name, Duration window) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		BucketClock.Range range = this.clock.last(window);
		if (aggregate == null) {
			long[] none = new long[(int) (range.last() - range.first() + 1)];
			Arrays.fill(none, -1);
			return none;
		}
		return this.stats.percentilePerBucket(aggregate, range, 99);
	}

	/**
	 * Where a test interleaves a sweep: {@code hook} runs between resolving a name and
	 * recording into it.
	 */
	void afterResolve(Runnable hook) {
		this.names.afterResolve = hook;
	}

	/**
	 * The current bucket index, after dropping what left the window if the bucket
	 * changed.
	 */
	private long tick() {
		long now = this.clock.nowIndex();
		if (this.lastSweepIndex != now) {
			this.lastSweepIndex = now;
			sweep(now);
		}
		return now;
	}

	/** Drop buckets that left the window, and retire names left with none. */
	private void sweep(long now) {
		this.names.sweep((aggregate) -> {
			// Its statistics' lock held while the profiles retire it: nothing lands in it
			// unseen.
			synchronized (aggregate) {
				return this.profiles.expire(aggregate, now, this.stats.expire(aggregate, now));
			}
		}, this.profiles::swept);
	}

}
