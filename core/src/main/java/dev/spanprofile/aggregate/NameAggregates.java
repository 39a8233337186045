package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.DiffTree;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * Profiles and latency per local-root span name, over a sliding window of time buckets, independent of which
 * spans the store still holds.
 * <p>
 * Every local root that ends counts in its name's latency statistics. Once its profile is complete (or when the
 * store drops it first), its samples of each kind are folded into the profile of its name, time bucket (by end
 * time) and latency band, so a name's profile can later be read for any part of the window and any duration
 * range, and its slow spans compared with its typical ones.
 * <p>
 * Bounded three ways: at most {@link AggregateSettings#maxNames()} names (later ones count as
 * {@link AggregateSettings#OTHER}), at most {@link AggregateSettings#maxStacks()} call-tree nodes per profile, and
 * {@link AggregateSettings#maxBytes()} overall, beyond which the oldest buckets lose their profiles but keep their
 * statistics.
 */
public final class NameAggregates {

	private final AggregateSettings settings;

	private final LongSupplier clockEpochNanos;

	private final TreeTrimmer trimmer;

	private final Map<String, NameAggregate> names = new ConcurrentHashMap<>();

	/** Guards every {@link ProfileBucket} and the stack trie. */
	private final Object profileLock = new Object();

	private StackTrie trie;

	/** Bytes of latency statistics, and of profile buckets (the trie is counted when asked). */
	private final AtomicLong statsBytes = new AtomicLong();

	private final AtomicLong profileBytes = new AtomicLong();

	private long lastCompaction = Long.MIN_VALUE;

	private volatile long lastSweepIndex = Long.MIN_VALUE;

	public NameAggregates(AggregateSettings settings, FrameTable frames, LongSupplier clockEpochNanos) {
		this.settings = settings;
		this.clockEpochNanos = clockEpochNanos;
		int trimmed = frames.intern(TreeTrimmer.TRIMMED_FRAME, FrameKind.JAVA);
		this.trimmer = new TreeTrimmer(trimmed);
		this.trie = new StackTrie(trimmed, trieCapacity(settings));
	}

	/** The trie may take about half the budget (some 24 bytes a node); buckets and statistics the rest. */
	private static int trieCapacity(AggregateSettings settings) {
		return (int) Math.max(1024, Math.min(Integer.MAX_VALUE / 4, settings.maxBytes() / 2 / 24));
	}

	public AggregateSettings settings() {
		return this.settings;
	}

	/** A local root ended: count it in its name's latency statistics. */
	public void spanEnded(String name, String spanId, long durationNanos, boolean error, long endEpochNanos) {
		long now = tick();
		NameAggregate aggregate = resolve(name);
		synchronized (aggregate) {
			TimeBucket bucket = aggregate.stats.bucket(indexOf(endEpochNanos), now, this::released);
			if (bucket != null) {
				bucket.spanEnded(spanId, durationNanos, error);
				long bytes = bucket.bytes();
				this.statsBytes.addAndGet(bytes - bucket.accountedBytes);
				bucket.accountedBytes = bytes;
			}
		}
	}

	/**
	 * Fold an ended local root's samples (its whole local request) into its name's profile. Call once per root,
	 * when its profile is complete or it is about to be dropped.
	 */
	public void fold(SpanRecord root) {
		if (root.inFlight()) {
			return;
		}
		long now = tick();
		int band = LatencyBands.of(root.durationNanos(root.endEpochNanos()));
		StackTree[] trees = new StackTree[SampleKind.values().length];
		for (SampleKind kind : SampleKind.values()) {
			if (root.inclusiveSampleCount(kind) > 0) {
				trees[kind.ordinal()] = root.inclusiveSamples(kind);
			}
		}
		NameAggregate aggregate = resolve(root.name());
		synchronized (this.profileLock) {
			ProfileBucket bucket = aggregate.profiles.bucket(indexOf(root.endEpochNanos()), now, this::released);
			if (bucket == null) {
				return;
			}
			if (this.trie.full() && this.lastCompaction != now) {
				this.lastCompaction = now;
				compactTrie();
			}
			bucket.spanFolded(band);
			for (SampleKind kind : SampleKind.values()) {
				StackTree tree = trees[kind.ordinal()];
				if (tree != null) {
					tree.visit((path, depth, total, self) -> {
						if (self > 0) {
							bucket.add(this.trie.intern(path, depth), kind, band, self);
						}
					});
				}
			}
			if (bucket.counts().size() > this.settings.maxStacks()) {
				// Below the budget, not to it, so that a busy bucket is not trimmed on every span.
				bucket.replaceCounts(
						new StackTrimming(this.trie).trim(bucket.counts(), this.settings.maxStacks() * 3 / 4));
			}
			account(bucket);
			enforceMemoryBudget();
		}
	}

	/** Approximate heap held by all aggregates. */
	public long approximateBytes() {
		long trieBytes;
		synchronized (this.profileLock) {
			trieBytes = this.trie.bytes();
		}
		return this.statsBytes.get() + this.profileBytes.get() + trieBytes
				+ (long) this.names.size() * (160 + 16L * (this.settings.bucketCount() + 1));
	}

	/** Names with spans in the last {@code window}, busiest first. */
	public List<NameSummary> summaries(Duration window) {
		tick();
		List<NameSummary> result = new ArrayList<>();
		for (NameAggregate aggregate : this.names.values()) {
			NameSummary summary = summary(aggregate, window);
			if (summary.count() > 0 || summary.cpuSamples() + summary.wallSamples() > 0) {
				result.add(summary);
			}
		}
		result.sort(Comparator.comparingLong(NameSummary::count).reversed().thenComparing(NameSummary::name));
		return result;
	}

	/** One name's summary over the last {@code window}, or {@code null} for a name never seen (or expired). */
	public NameSummary summary(String name, Duration window) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		return (aggregate != null) ? summary(aggregate, window) : null;
	}

	private NameSummary summary(NameAggregate aggregate, Duration window) {
		Histogram latencies = new PackedHistogram(2);
		Slowest slowest = new Slowest(TimeBucket.SLOWEST_KEPT);
		long[] totals = new long[2 + SampleKind.values().length];
		long[] range = windowIndexes(window);
		synchronized (aggregate) {
			aggregate.stats.forEach(range[0], range[1], (bucket) -> {
				bucket.addLatenciesTo(latencies);
				bucket.addSlowestTo(slowest);
				totals[0] += bucket.errors();
				totals[1] = Math.max(totals[1], bucket.maxNanos());
			});
		}
		synchronized (this.profileLock) {
			aggregate.profiles.forEach(range[0], range[1], (bucket) -> {
				for (SampleKind kind : SampleKind.values()) {
					totals[2 + kind.ordinal()] += bucket.samples(kind);
				}
			});
		}
		long max = totals[1];
		return new NameSummary(aggregate.name, latencies.getTotalCount(), totals[0],
				percentileNanos(latencies, 50, max), percentileNanos(latencies, 90, max),
				percentileNanos(latencies, 99, max), max,
				totals[2 + SampleKind.CPU.ordinal()], totals[2 + SampleKind.WALL.ordinal()], slowest.spanIds(),
				Math.round(latencies.getMean() * latencies.getTotalCount() * 1000),
				totals[2 + SampleKind.WAIT.ordinal()]);
	}

	/** The histogram reports the top of a value's bucket, which may lie above the exact maximum: never beyond it. */
	private static long percentileNanos(Histogram latencies, double percentile, long maxNanos) {
		return (latencies.getTotalCount() > 0) ? Math.min(maxNanos, latencies.getValueAtPercentile(percentile) * 1000)
				: 0;
	}

	/**
	 * A name's profile of {@code kind} over the last {@code window}, from spans whose duration falls in the bands
	 * covering {@code [minNanos, maxNanos]}; {@code null} for an unknown name.
	 */
	public NameProfile profile(String name, Duration window, SampleKind kind, long minNanos, long maxNanos) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		if (aggregate == null) {
			return null;
		}
		int fromBand = LatencyBands.of(minNanos);
		int toBand = LatencyBands.of(maxNanos);
		Side side = collect(aggregate, window, kind, fromBand, toBand);
		return new NameProfile(name, side.tree, side.spans, LatencyBands.lowerEdgeNanos(fromBand),
				LatencyBands.upperEdgeNanos(toBand));
	}

	/**
	 * A name's slow spans against the rest; {@code null} for an unknown name. An explicit {@code thresholdNanos}
	 * is applied at the nearest band edge; by default the slow spans are those above the band of the name's p90
	 * over the window (or in it, if none is above).
	 */
	public ProfileDiff compare(String name, Duration window, SampleKind kind, Long thresholdNanos) {
		tick();
		NameAggregate aggregate = this.names.get(name);
		if (aggregate == null) {
			return null;
		}
		int split = splitBand(aggregate, window, thresholdNanos);
		Side slow = collect(aggregate, window, kind, split, LatencyBands.count() - 1);
		Side typical = collect(aggregate, window, kind, 0, split - 1);
		return new ProfileDiff(name, DiffTree.of(slow.tree, typical.tree), slow.spans, typical.spans,
				LatencyBands.lowerEdgeNanos(split));
	}

	/**
	 * One span's own request against the typical spans of its name (those below the name's p90 over the window);
	 * {@code null} when its name is unknown.
	 */
	public ProfileDiff compareWithTypical(SpanRecord span, Duration window, SampleKind kind) {
		tick();
		SpanRecord root = span.localRoot();
		NameAggregate aggregate = this.names.get(root.name());
		if (aggregate == null) {
			return null;
		}
		int split = splitBand(aggregate, window, null);
		Side typical = collect(aggregate, window, kind, 0, split - 1);
		StackTree own = root.inclusiveSamples(kind);
		return new ProfileDiff(root.name(), DiffTree.of(own, typical.tree), 1, typical.spans,
				LatencyBands.lowerEdgeNanos(split));
	}

	private int splitBand(NameAggregate aggregate, Duration window, Long thresholdNanos) {
		if (thresholdNanos != null) {
			return Math.max(1, nearestEdge(thresholdNanos));
		}
		long[] spansPerBand = new long[LatencyBands.count()];
		long[] range = windowIndexes(window);
		synchronized (this.profileLock) {
			aggregate.profiles.forEach(range[0], range[1], (bucket) -> {
				for (int band = 0; band < spansPerBand.length; band++) {
					spansPerBand[band] += bucket.spansIn(band);
				}
			});
		}
		// Slow means slower than the p90's whole band, so no typical span is called slow by rounding; when nothing
		// is (all in one band), the p90's band itself is the slow side.
		int p90Band = LatencyBands.of(summary(aggregate, window).p90Nanos());
		int split = p90Band + 1;
		if (split >= spansPerBand.length || sum(spansPerBand, split, spansPerBand.length) == 0) {
			split = p90Band;
		}
		return Math.max(1, split);
	}

	/** The band whose lower edge is nearest to {@code nanos} on a log scale. */
	private static int nearestEdge(long nanos) {
		int band = LatencyBands.of(nanos);
		if (band + 1 < LatencyBands.count()) {
			double below = (double) nanos / Math.max(1, LatencyBands.lowerEdgeNanos(band));
			double above = (double) LatencyBands.lowerEdgeNanos(band + 1) / Math.max(1, nanos);
			if (above < below) {
				return band + 1;
			}
		}
		return band;
	}

	private static long sum(long[] values, int from, int to) {
		long sum = 0;
		for (int i = from; i < to; i++) {
			sum += values[i];
		}
		return sum;
	}

	private Side collect(NameAggregate aggregate, Duration window, SampleKind kind, int fromBand, int toBand) {
		StackTree tree = new StackTree();
		long[] spans = { 0 };
		long[] range = windowIndexes(window);
		synchronized (this.profileLock) {
			aggregate.profiles.forEach(range[0], range[1], (bucket) -> {
				for (int band = fromBand; band <= toBand; band++) {
					spans[0] += bucket.spansIn(band);
				}
				bucket.counts().forEach((key, samples) -> {
					int band = ProfileBucket.bandOf(key);
					if (ProfileBucket.kindOf(key) == kind.ordinal() && band >= fromBand && band <= toBand) {
						tree.add(this.trie.path(ProfileBucket.stackOf(key)), samples);
					}
				});
			});
		}
		// A window of many buckets can hold more stacks than a page can draw; the thinnest go to [trimmed].
		return new Side(this.trimmer.trim(tree, 4 * this.settings.maxStacks(), 4 * this.settings.maxStacks()),
				spans[0]);
	}

	/** First and last bucket index of the last {@code window}. */
	private long[] windowIndexes(Duration window) {
		long now = nowIndex();
		long buckets = Math.max(1, ceilDiv(window.toNanos(), this.settings.bucket().toNanos()));
		// The bucket being filled counts as one: "last 15m" covers the current minute and the 14 before it.
		return new long[] { now - buckets + 1, now };
	}

	private static long ceilDiv(long a, long b) {
		return -Math.floorDiv(-a, b);
	}

	/** The name's aggregate, or {@link AggregateSettings#OTHER}'s once the name limit is reached. */
	private NameAggregate resolve(String name) {
		NameAggregate aggregate = this.names.get(name);
		if (aggregate != null) {
			return aggregate;
		}
		synchronized (this.names) {
			aggregate = this.names.get(name);
			if (aggregate != null) {
				return aggregate;
			}
			long real = this.names.size() - (this.names.containsKey(AggregateSettings.OTHER) ? 1 : 0);
			String key = (real < this.settings.maxNames()) ? name : AggregateSettings.OTHER;
			return this.names.computeIfAbsent(key,
					(created) -> new NameAggregate(created, this.settings.bucketCount()));
		}
	}

	/** The current bucket index, after dropping what left the window if the bucket changed. */
	private long tick() {
		long now = nowIndex();
		if (this.lastSweepIndex != now) {
			this.lastSweepIndex = now;
			sweep(now);
		}
		return now;
	}

	/** Drop buckets that left the window, and names left with none. */
	private void sweep(long now) {
		synchronized (this.names) {
			this.names.values().removeIf((aggregate) -> {
				boolean stats;
				synchronized (aggregate) {
					stats = aggregate.stats.expire(now, this::released);
				}
				synchronized (this.profileLock) {
					boolean profiles = aggregate.profiles.expire(now, this::released);
					return !stats && !profiles;
				}
			});
			if (this.names.isEmpty()) {
				synchronized (this.profileLock) {
					this.trie = new StackTrie(this.trie.trimmedFrame(), trieCapacity(this.settings));
				}
			}
		}
	}

	/** Count the change in a profile bucket's size; under the profile lock. */
	private void account(ProfileBucket bucket) {
		long bytes = bucket.bytes();
		this.profileBytes.addAndGet(bytes - bucket.accountedBytes);
		bucket.accountedBytes = bytes;
	}

	private void released(TimeBucket bucket) {
		this.statsBytes.addAndGet(-bucket.accountedBytes);
		bucket.accountedBytes = 0;
	}

	private void released(ProfileBucket bucket) {
		this.profileBytes.addAndGet(-bucket.accountedBytes);
		bucket.accountedBytes = 0;
	}

	/**
	 * Over budget: forget the stacks of the oldest buckets, across names, until within it (their statistics and
	 * counts stay). Under the profile lock.
	 */
	private void enforceMemoryBudget() {
		while (approximateBytes() > this.settings.maxBytes()) {
			ProfileBucket[] oldest = { null };
			for (NameAggregate aggregate : this.names.values()) {
				aggregate.profiles.forEach(Long.MIN_VALUE, Long.MAX_VALUE, (bucket) -> {
					if (bucket.holdsStacks() && (oldest[0] == null || bucket.index() < oldest[0].index())) {
						oldest[0] = bucket;
					}
				});
			}
			if (oldest[0] == null) {
				return;
			}
			oldest[0].dropStacks();
			account(oldest[0]);
		}
	}

	/**
	 * The trie only grows; once full, rebuild it from the stacks still counted, so that stacks of expired buckets
	 * stop taking the room of new ones. Under the profile lock.
	 */
	private void compactTrie() {
		StackTrie fresh = new StackTrie(this.trie.trimmedFrame(), trieCapacity(this.settings));
		for (NameAggregate aggregate : this.names.values()) {
			aggregate.profiles.forEach(Long.MIN_VALUE, Long.MAX_VALUE, (bucket) -> {
				LongCounts remapped = new LongCounts();
				bucket.counts().forEach((key, samples) -> {
					int[] path = this.trie.path(ProfileBucket.stackOf(key));
					int stack = fresh.intern(path, path.length);
					remapped.add(ProfileBucket.key(stack, SampleKind.values()[ProfileBucket.kindOf(key)],
							ProfileBucket.bandOf(key)), samples);
				});
				bucket.replaceCounts(remapped);
				account(bucket);
			});
		}
		this.trie = fresh;
	}

	private record Side(StackTree tree, long spans) {
	}

	private long nowIndex() {
		return indexOf(this.clockEpochNanos.getAsLong());
	}

	private long indexOf(long epochNanos) {
		return Math.floorDiv(epochNanos, this.settings.bucket().toNanos());
	}

}
