package dev.spanprofile.aggregate;

import java.util.Collection;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * The folded samples of every name: per name a ring of {@link ProfileBucket}s counting
 * stacks interned in one {@link StackTrie} shared by all names ({@link StackMemory} keeps
 * it and the buckets within the memory budget). One lock, this object, guards every
 * bucket and the trie, because rebuilding the trie rewrites the buckets of all names at
 * once.
 */
final class NameProfiles {

	private final StackMemory memory;

	private final BreakdownFold breakdowns;

	/**
	 * @param trimmedFrame the frame thin stacks are folded into
	 * @param names every name's aggregate, as it changes
	 * @param otherBytes what the aggregates hold besides profiles
	 */
	NameProfiles(AggregateSettings settings, FrameTable frames, int trimmedFrame, Collection<NameAggregate> names,
			LongSupplier otherBytes) {
		this.breakdowns = new BreakdownFold(frames);
		this.memory = new StackMemory(settings, trimmedFrame, names, () -> otherBytes.getAsLong() + breakdownBytes());
	}

	/** Read under this lock by the memory's count, which runs under it too. */
	private long breakdownBytes() {
		return this.breakdowns.bytes();
	}

	/**
	 * Fold one span's samples, {@code trees} by sample kind, into its name's bucket
	 * {@code index} and latency {@code band} (unless that bucket has left the window);
	 * {@code error} marks a span that failed, {@code unsampled} a request that tracing
	 * did not sample; {@code request} its figures, which its cell's breakdown adds up.
	 * @return {@code false}, folding nothing, when the aggregate was retired: its name is
	 * to be looked up again
	 */
	synchronized boolean fold(NameAggregate aggregate, long index, long nowIndex, int band, boolean error,
			boolean unsampled, StackTree[] trees, RequestFigures request) {
		if (aggregate.retired) {
			return false;
		}
		ProfileBucket bucket = aggregate.profiles.bucket(index, nowIndex, this.memory::released);
		if (bucket == null) {
			return true;
		}
		int nodes = 0;
		for (StackTree tree : trees) {
			nodes += (tree != null) ? tree.nodeCount() : 0;
		}
		this.memory.makeRoom(bucket, nodes);
		// Read after making room: that may have rebuilt the trie.
		StackTrie trie = this.memory.trie();
		bucket.spanFolded(band, error, unsampled);
		this.breakdowns.fold(bucket.breakdownOf(band), request.durationNanos(), trees[SampleKind.WAIT.ordinal()],
				request.cpuNanos(), request.measured(), request.cpuSamples(), request.runQueueNanos(),
				request.blockedNanos());
		for (SampleKind kind : SampleKind.values()) {
			StackTree tree = trees[kind.ordinal()];
			if (tree != null) {
				tree.visit((path, depth, total, self) -> {
					if (self > 0) {
						bucket.add(trie.intern(path, depth), kind, band, self);
					}
				});
			}
		}
		this.memory.folded(bucket, nowIndex);
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
		StackTrie trie = this.memory.trie();
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
					tree.add(trie.path(ProfileBucket.stackOf(key)), samples);
				}
			});
		});
		return new Merged(tree, spans[0], spans[1]);
	}

	/**
	 * Where the time of a name's requests in the {@code cells} within {@code buckets}
	 * went, added up.
	 */
	synchronized RequestsBreakdown breakdown(NameAggregate aggregate, BucketClock.Range buckets, Cells cells) {
		BreakdownSums sums = this.breakdowns.sums();
		aggregate.profiles.forEach(buckets.first(), buckets.last(), (bucket) -> {
			for (int i = 0; i < bucket.breakdownCount(); i++) {
				if (cells.includes(bucket.index(), bucket.breakdownBand(i))) {
					this.breakdowns.addAll(sums, bucket.breakdownAt(i));
				}
			}
		});
		return this.breakdowns.breakdown(sums);
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
		boolean profilesLeft = aggregate.profiles.expire(nowIndex, this.memory::released);
		aggregate.retired = !statisticsLeft && !profilesLeft;
		return aggregate.retired;
	}

	/**
	 * After a sweep: what left the window leaves the trie too, before it takes the room
	 * of new stacks.
	 */
	synchronized void swept() {
		this.memory.swept();
	}

	/**
	 * Bytes of the profile buckets (their breakdowns in them), the trie and the wait
	 * slots.
	 */
	synchronized long bytes() {
		return this.memory.bytes() + breakdownBytes();
	}

	/**
	 * A merged profile and the spans folded into it.
	 *
	 * @param unsampled of those, the requests that tracing did not sample
	 */
	record Merged(StackTree tree, long spans, long unsampled) {
	}

}
