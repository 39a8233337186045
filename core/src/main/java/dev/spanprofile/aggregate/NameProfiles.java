package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * The folded samples of every name: per name a ring of {@link ProfileBucket}s counting
 * stacks interned in one {@link StackTrie} shared by all names. One lock, this object,
 * guards every bucket and the trie, because rebuilding the trie rewrites the buckets of
 * all names at once.
 * <p>
 * Memory: the trie takes at most half of {@link AggregateSettings#maxBytes()}, at what
 * its arrays cost once doubled. When it has no room for a span's stacks it is rebuilt
 * from the stacks still counted, newest bucket first, and once three quarters of its room
 * are taken the older buckets lose their stacks. Beyond the budget as a whole, the trie
 * is rebuilt if stacks nothing counts hold room in it, then the oldest buckets lose their
 * stacks. The bucket being folded never does, and a bucket that lost its stacks keeps its
 * span and sample counts.
 */
final class NameProfiles {

	private final AggregateSettings settings;

	private final Collection<NameAggregate> names;

	/** What the aggregates hold besides profiles: statistics and per-name costs. */
	private final LongSupplier otherBytes;

	private StackTrie trie;

	/** Bytes of all names' profile buckets; the trie's are its own. */
	private long bucketBytes;

	/**
	 * The trie's size when last rebuilt: it is rebuilt for room only once it has grown a
	 * little since.
	 */
	private int sizeAfterCompaction;

	/**
	 * Whether the trie holds stacks that no bucket counts any more (expired, dropped or
	 * trimmed away).
	 */
	private boolean staleStacks;

	/**
	 * The bucket of the last rebuild made to meet the memory budget: one a bucket at
	 * most.
	 */
	private long budgetCompaction = Long.MIN_VALUE;

	/**
	 * @param trimmedFrame the frame thin stacks are folded into
	 * @param names every name's aggregate, as it changes
	 */
	NameProfiles(AggregateSettings settings, int trimmedFrame, Collection<NameAggregate> names,
			LongSupplier otherBytes) {
		this.settings = settings;
		this.names = names;
		this.otherBytes = otherBytes;
		replaceTrie(newTrie(trimmedFrame));
	}

	private StackTrie newTrie(int trimmedFrame) {
		return new StackTrie(trimmedFrame, StackTrie.capacityFor(this.settings.maxBytes() / 2));
	}

	/** Use {@code fresh}, holding every stack counted. */
	private void replaceTrie(StackTrie fresh) {
		this.trie = fresh;
		this.sizeAfterCompaction = fresh.size();
		this.staleStacks = false;
	}

	/**
	 * Fold one span's samples, {@code trees} by sample kind, into its name's bucket
	 * {@code index} and latency {@code band} (unless that bucket has left the window);
	 * {@code error} marks a span that failed, {@code unsampled} a request that tracing
	 * did not sample.
	 * @return {@code false}, folding nothing, when the aggregate was retired: its name is
	 * to be looked up again
	 */
	synchronized boolean fold(NameAggregate aggregate, long index, long nowIndex, int band, boolean error,
			boolean unsampled, StackTree[] trees) {
		if (aggregate.retired) {
			return false;
		}
		ProfileBucket bucket = aggregate.profiles.bucket(index, nowIndex, this::released);
		if (bucket == null) {
			return true;
		}
		int nodes = 0;
		for (StackTree tree : trees) {
			nodes += (tree != null) ? tree.nodeCount() : 0;
		}
		makeRoom(bucket, nodes);
		bucket.spanFolded(band, error, unsampled);
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
		this.staleStacks |= new StackTrimming(this.trie).bound(bucket, this.settings.maxStacks());
		this.bucketBytes += bucket.recount();
		enforceMemoryBudget(bucket, nowIndex);
		return true;
	}

	/**
	 * A name's samples of each kind, by {@link SampleKind#ordinal()}, in {@code buckets};
	 * last, the unsampled requests folded in.
	 */
	synchronized long[] samples(NameAggregate aggregate, BucketClock.Range buckets) {
		int kinds = SampleKind.values().length;
		long[] samples = new long[kinds + 1];
		aggregate.profiles.forEach(buckets.first(), buckets.last(), (bucket) -> {
			for (SampleKind kind : SampleKind.values()) {
				samples[kind.ordinal()] += bucket.samples(kind);
			}
			for (int band = 0; band < LatencyBands.count(); band++) {
				samples[kinds] += bucket.unsampledIn(band);
			}
		});
		return samples;
	}

	/** A name's spans folded in {@code buckets}, by latency band. */
	synchronized long[] spansPerBand(NameAggregate aggregate, BucketClock.Range buckets) {
		long[] spans = new long[LatencyBands.count()];
		aggregate.profiles.forEach(buckets.first(), buckets.last(), (bucket) -> {
			for (int band = 0; band < spans.length; band++) {
				spans[band] += bucket.spansIn(band);
			}
		});
		return spans;
	}

	/**
	 * A name's merged profile of {@code kind} from the spans of the {@code cells} within
	 * {@code buckets}.
	 */
	synchronized Merged merge(NameAggregate aggregate, BucketClock.Range buckets, SampleKind kind, Cells cells) {
		StackTree tree = new StackTree();
		long[] spans = { 0, 0 };
		aggregate.profiles.forEach(buckets.first(), buckets.last(), (bucket) -> {
			for (int band = 0; band < LatencyBands.count(); band++) {
				if (cells.includes(bucket.index(), band)) {
					spans[0] += bucket.spansIn(band);
					spans[1] += bucket.unsampledIn(band);
				}
			}
			bucket.counts().forEach((key, samples) -> {
				if (ProfileBucket.kindOf(key) == kind.ordinal()
						&& cells.includes(bucket.index(), ProfileBucket.bandOf(key))) {
					tree.add(this.trie.path(ProfileBucket.stackOf(key)), samples);
				}
			});
		});
		return new Merged(tree, spans[0], spans[1]);
	}

	/**
	 * A name's spans and failed spans per bucket of {@code buckets} and band, the bands
	 * cut to those with spans: the same counts a merge adds up, so that a selection of
	 * cells holds exactly the spans it shows.
	 */
	synchronized LatencyHeatmap heatmap(NameAggregate aggregate, BucketClock.Range buckets, long bucketNanos) {
		int columns = (int) (buckets.last() - buckets.first() + 1);
		long[][] spans = new long[columns][LatencyBands.count()];
		long[][] errors = new long[columns][LatencyBands.count()];
		aggregate.profiles.forEach(buckets.first(), buckets.last(), (bucket) -> {
			int column = (int) (bucket.index() - buckets.first());
			for (int band = 0; band < LatencyBands.count(); band++) {
				spans[column][band] = bucket.spansIn(band);
				errors[column][band] = bucket.errorsIn(band);
			}
		});
		return LatencyHeatmap.of(buckets.first(), bucketNanos, spans, errors);
	}

	/**
	 * Drop a name's buckets older than the window ending at {@code nowIndex}, and retire
	 * its aggregate when nothing is left of it. The caller holds the aggregate's monitor,
	 * so nothing lands in its statistics meanwhile.
	 * @param statisticsLeft whether any of its statistics are left
	 * @return whether it was retired
	 */
	synchronized boolean expire(NameAggregate aggregate, long nowIndex, boolean statisticsLeft) {
		boolean profilesLeft = aggregate.profiles.expire(nowIndex, this::released);
		aggregate.retired = !statisticsLeft && !profilesLeft;
		return aggregate.retired;
	}

	/**
	 * After a sweep: what left the window leaves the trie too, before it takes the room
	 * of new stacks.
	 */
	synchronized void swept() {
		if (this.names.isEmpty()) {
			replaceTrie(newTrie(this.trie.trimmedFrame()));
		}
		else if (this.staleStacks) {
			compactTrie(null, this.trie.capacity());
		}
	}

	/** Bytes of the profile buckets and the trie. */
	synchronized long bytes() {
		return this.bucketBytes + this.trie.bytes();
	}

	private void released(ProfileBucket bucket) {
		this.bucketBytes += bucket.release();
		this.staleStacks |= bucket.holdsStacks();
	}

	/**
	 * Before {@code nodes} more stacks are interned: when the trie has no room for them,
	 * rebuild it, keeping the newest buckets' stacks up to three quarters of its
	 * capacity. Only once it has grown since it last was: a trie full of one bucket's
	 * stacks is not rebuilt on every fold (its overflow goes to {@code [trimmed]} frames
	 * meanwhile).
	 */
	private void makeRoom(ProfileBucket folding, int nodes) {
		StackTrie trie = this.trie;
		if (trie.size() + nodes > trie.capacity() && trie.size() - this.sizeAfterCompaction >= trie.capacity() / 8) {
			compactTrie(folding, trie.capacity() / 4 * 3);
		}
	}

	/**
	 * Over budget: rebuild the trie if it holds stacks nothing counts (once a bucket at
	 * most), then forget the stacks of the oldest buckets, across names, until within it.
	 * Never those of the bucket being folded.
	 */
	private void enforceMemoryBudget(ProfileBucket folding, long nowIndex) {
		if (bytes() + this.otherBytes.getAsLong() <= this.settings.maxBytes()) {
			return;
		}
		if (this.staleStacks && this.budgetCompaction != nowIndex) {
			this.budgetCompaction = nowIndex;
			compactTrie(folding, this.trie.capacity());
		}
		long excess = bytes() + this.otherBytes.getAsLong() - this.settings.maxBytes();
		List<ProfileBucket> oldestFirst = bucketsHoldingStacks();
		oldestFirst.sort(Comparator.comparingLong(ProfileBucket::index));
		long freed = 0;
		for (ProfileBucket bucket : oldestFirst) {
			if (freed >= excess) {
				return;
			}
			if (bucket != folding) {
				freed -= drop(bucket);
				// Their nodes stay in the trie, counted, until it is next rebuilt.
				this.staleStacks = true;
			}
		}
	}

	/** Forget a bucket's stacks. @return the change in bytes */
	private long drop(ProfileBucket bucket) {
		bucket.dropStacks();
		long change = bucket.recount();
		this.bucketBytes += change;
		return change;
	}

	private List<ProfileBucket> bucketsHoldingStacks() {
		List<ProfileBucket> buckets = new ArrayList<>();
		for (NameAggregate aggregate : this.names) {
			aggregate.profiles.forEach(Long.MIN_VALUE, Long.MAX_VALUE, (bucket) -> {
				if (bucket.holdsStacks()) {
					buckets.add(bucket);
				}
			});
		}
		return buckets;
	}

	/**
	 * The trie only grows: rebuild it from the stacks still counted, so that stacks of
	 * expired, dropped and trimmed buckets stop taking the room of new ones. The newest
	 * buckets are kept first, the one being folded (if any) before all; once
	 * {@code keepNodes} are taken, older buckets lose their stacks.
	 */
	private void compactTrie(ProfileBucket folding, int keepNodes) {
		StackTrie old = this.trie;
		StackTrie fresh = newTrie(old.trimmedFrame());
		List<ProfileBucket> newestFirst = bucketsHoldingStacks();
		newestFirst.sort(Comparator.comparing((ProfileBucket bucket) -> bucket != folding)
			.thenComparing(Comparator.comparingLong(ProfileBucket::index).reversed()));
		for (ProfileBucket bucket : newestFirst) {
			if (bucket != folding && fresh.size() > keepNodes) {
				drop(bucket);
				continue;
			}
			LongCounts remapped = new LongCounts();
			bucket.counts().forEach((key, samples) -> {
				int[] path = old.path(ProfileBucket.stackOf(key));
				remapped.add(ProfileBucket.withStack(key, fresh.intern(path, path.length)), samples);
			});
			bucket.replaceCounts(remapped);
			this.bucketBytes += bucket.recount();
		}
		replaceTrie(fresh);
	}

	/**
	 * A merged profile and the spans folded into it.
	 *
	 * @param unsampled of those, the requests that tracing did not sample
	 */
	record Merged(StackTree tree, long spans, long unsampled) {
	}

}
