package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The trie of every name's stacks and the bytes their buckets take, kept within
 * {@link AggregateSettings#maxBytes()}. Used only under the lock of the
 * {@link NameProfiles} that owns it.
 * <p>
 * The trie takes at most half of the budget, at what its arrays cost once doubled. When
 * it has no room for a span's stacks it is rebuilt from the stacks still counted, newest
 * bucket first, and once three quarters of its room are taken the older buckets lose
 * their stacks. Beyond the budget as a whole, the trie is rebuilt if stacks nothing
 * counts hold room in it, then the oldest buckets lose their stacks. The bucket being
 * folded never does, and a bucket that lost its stacks keeps its span and sample counts.
 */
final class StackMemory {

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

	StackMemory(AggregateSettings settings, int trimmedFrame, Collection<NameAggregate> names,
			LongSupplier otherBytes) {
		this.settings = settings;
		this.names = names;
		this.otherBytes = otherBytes;
		replaceTrie(newTrie(trimmedFrame));
	}

	/** The trie stacks are interned in now; a rebuild replaces it. */
	StackTrie trie() {
		return this.trie;
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
	 * Before {@code nodes} more stacks are interned: when the trie has no room for them,
	 * rebuild it, keeping the newest buckets' stacks up to three quarters of its
	 * capacity. Only once it has grown since it last was: a trie full of one bucket's
	 * stacks is not rebuilt on every fold (its overflow goes to {@code [trimmed]} frames
	 * meanwhile).
	 */
	void makeRoom(ProfileBucket folding, int nodes) {
		StackTrie trie = this.trie;
		if (trie.size() + nodes > trie.capacity() && trie.size() - this.sizeAfterCompaction >= trie.capacity() / 8) {
			compactTrie(folding, trie.capacity() / 4 * 3);
		}
	}

	/**
	 * A span was folded into {@code bucket}: bound its stacks, count its bytes, and meet
	 * the budget.
	 */
	void folded(ProfileBucket bucket, long nowIndex) {
		this.staleStacks |= new StackTrimming(this.trie).bound(bucket, this.settings.maxStacks());
		this.bucketBytes += bucket.recount();
		enforceMemoryBudget(bucket, nowIndex);
	}

	/** A bucket left the window. */
	void released(ProfileBucket bucket) {
		this.bucketBytes += bucket.release();
		this.staleStacks |= bucket.holdsStacks();
	}

	/** After a sweep: rebuild the trie if stacks nothing counts take room in it. */
	void swept() {
		if (this.names.isEmpty()) {
			replaceTrie(newTrie(this.trie.trimmedFrame()));
		}
		else if (this.staleStacks) {
			compactTrie(null, this.trie.capacity());
		}
	}

	/** Bytes of the profile buckets and the trie. */
	long bytes() {
		return this.bucketBytes + this.trie.bytes();
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
		// Old node to new, 0 until resolved: each kept node is interned once.
		int[] mapped = new int[old.size()];
		for (ProfileBucket bucket : newestFirst) {
			if (bucket != folding && fresh.size() > keepNodes) {
				drop(bucket);
				continue;
			}
			LongCounts remapped = new LongCounts();
			bucket.counts()
				.forEach((key, samples) -> remapped
					.add(ProfileBucket.withStack(key, fresh.intern(old, ProfileBucket.stackOf(key), mapped)), samples));
			bucket.replaceCounts(remapped);
			this.bucketBytes += bucket.recount();
		}
		replaceTrie(fresh);
	}

}
