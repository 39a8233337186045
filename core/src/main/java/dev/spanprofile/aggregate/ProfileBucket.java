package dev.spanprofile.aggregate;

import java.util.Arrays;

import dev.spanprofile.profile.SampleKind;

/**
 * The samples of one name's spans that ended within one time bucket and whose profiles
 * were folded in: counts per (stack, sample kind, latency band), stacks being ids in the
 * shared {@link StackTrie}. Guarded by the {@link NameProfiles} that owns the trie.
 */
final class ProfileBucket implements BucketRing.Indexed {

	private static final int FIXED_BYTES = 120;

	private final long index;

	private LongCounts counts = new LongCounts();

	private final long[] spansPerBand = new long[LatencyBands.count()];

	private final long[] errorsPerBand = new long[LatencyBands.count()];

	private final long[] samples = new long[SampleKind.values().length];

	/**
	 * Of {@link #spansPerBand}, the requests that tracing did not sample; made with the
	 * first.
	 */
	private long[] unsampledPerBand;

	/**
	 * The breakdown of each band's requests added up, for the bands in
	 * {@link #breakdownBands} (a bucket's requests fill a few of the bands), made as a
	 * band gets its first.
	 */
	private BreakdownSums[] breakdowns;

	private byte[] breakdownBands;

	private int breakdownCount;

	private boolean dropped;

	/** What {@link #bytes()} was when last counted in its owner's total. */
	private long accountedBytes;

	ProfileBucket(long index) {
		this.index = index;
	}

	@Override
	public long index() {
		return this.index;
	}

	static long key(int stack, SampleKind kind, int band) {
		return ((long) stack << 16) | ((long) kind.ordinal() << 8) | band;
	}

	/** {@code key} with another stack, the same kind and band. */
	static long withStack(long key, int stack) {
		return ((long) stack << 16) | (key & 0xFFFF);
	}

	static int stackOf(long key) {
		return (int) (key >>> 16);
	}

	static int kindOf(long key) {
		return (int) ((key >>> 8) & 0xFF);
	}

	static int bandOf(long key) {
		return (int) (key & 0xFF);
	}

	void spanFolded(int band, boolean error, boolean unsampled) {
		this.spansPerBand[band]++;
		if (error) {
			this.errorsPerBand[band]++;
		}
		if (unsampled) {
			if (this.unsampledPerBand == null) {
				this.unsampledPerBand = new long[this.spansPerBand.length];
			}
			this.unsampledPerBand[band]++;
		}
	}

	void add(int stack, SampleKind kind, int band, long samples) {
		this.samples[kind.ordinal()] += samples;
		if (!this.dropped) {
			this.counts.add(key(stack, kind, band), samples);
		}
	}

	/** The breakdown sums of {@code band}'s requests, made when missing. */
	BreakdownSums breakdownOf(int band) {
		BreakdownSums sums = breakdownIn(band);
		if (sums != null) {
			return sums;
		}
		if (this.breakdowns == null) {
			this.breakdowns = new BreakdownSums[4];
			this.breakdownBands = new byte[4];
		}
		else if (this.breakdownCount == this.breakdowns.length) {
			this.breakdowns = Arrays.copyOf(this.breakdowns, 2 * this.breakdownCount);
			this.breakdownBands = Arrays.copyOf(this.breakdownBands, 2 * this.breakdownCount);
		}
		sums = new BreakdownSums();
		this.breakdowns[this.breakdownCount] = sums;
		this.breakdownBands[this.breakdownCount++] = (byte) band;
		return sums;
	}

	/**
	 * The breakdown sums of {@code band}'s requests, {@code null} when none was folded.
	 */
	BreakdownSums breakdownIn(int band) {
		for (int i = 0; i < this.breakdownCount; i++) {
			if (this.breakdownBands[i] == band) {
				return this.breakdowns[i];
			}
		}
		return null;
	}

	/**
	 * Bands with a breakdown: {@link #breakdownBand} and {@link #breakdownAt} of 0 up to
	 * this.
	 */
	int breakdownCount() {
		return this.breakdownCount;
	}

	int breakdownBand(int i) {
		return this.breakdownBands[i];
	}

	BreakdownSums breakdownAt(int i) {
		return this.breakdowns[i];
	}

	LongCounts counts() {
		return this.counts;
	}

	void replaceCounts(LongCounts counts) {
		this.counts = counts;
	}

	/**
	 * Forget the stacks (span and sample counts stay); later samples are counted but not
	 * kept.
	 */
	void dropStacks() {
		this.dropped = true;
		this.counts = new LongCounts();
	}

	boolean holdsStacks() {
		return this.counts.size() > 0;
	}

	long spansIn(int band) {
		return this.spansPerBand[band];
	}

	long errorsIn(int band) {
		return this.errorsPerBand[band];
	}

	long unsampledIn(int band) {
		return (this.unsampledPerBand != null) ? this.unsampledPerBand[band] : 0;
	}

	long samples(SampleKind kind) {
		return this.samples[kind.ordinal()];
	}

	long bytes() {
		int bandArrays = (this.unsampledPerBand != null) ? 3 : 2;
		long bytes = FIXED_BYTES + 8L * bandArrays * this.spansPerBand.length + this.counts.bytes();
		if (this.breakdowns != null) {
			bytes += 2 * 16 + 5L * this.breakdowns.length;
			for (int i = 0; i < this.breakdownCount; i++) {
				bytes += this.breakdowns[i].bytes();
			}
		}
		return bytes;
	}

	/** What to add to its owner's total since it last counted this bucket. */
	long recount() {
		long bytes = bytes();
		long change = bytes - this.accountedBytes;
		this.accountedBytes = bytes;
		return change;
	}

	/** What to add to its owner's total as this bucket goes: minus all it counted. */
	long release() {
		long change = -this.accountedBytes;
		this.accountedBytes = 0;
		return change;
	}

}
