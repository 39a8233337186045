package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * What the store knows about one span: its identity and timing from the tracer, and the
 * samples attributed to it. Created when the span starts, so an in-flight span can be
 * listed and its partial profile read.
 */
public final class SpanRecord {

	private final String traceId;

	private final String spanId;

	private final String parentSpanId;

	private final SpanRecord localRoot;

	private final String kind;

	private final long startEpochNanos;

	private final String threadName;

	private volatile String name;

	private volatile String status = "UNSET";

	/** 0 while the span runs. */
	private volatile long endEpochNanos;

	/**
	 * Out of the store: no view lists it (its samples may still arrive while it awaits
	 * them, see awaitSamples).
	 */
	private volatile boolean evicted;

	/** Set on local roots by the store's retention; descendants go with their root. */
	private volatile RetainedAs retainedAs = RetainedAs.RECENT;

	/** Whether its caller asked for this request's profile; local roots only. */
	private volatile boolean forced;

	/** The capture that took this request, {@code null} for none; local roots only. */
	private volatile String capture;

	/**
	 * Guarded by this, with {@link #evicted}: a child is added before its parent goes or
	 * not at all.
	 */
	private final List<SpanRecord> children = new ArrayList<>(0);

	/** Guarded by this, with the account their bytes are charged to. */
	private final SpanSamples samples;

	/** Local roots only: what its threads' clocks measured, replaced whole per change. */
	private volatile SpanCpuTime.Measured measuredCpu = SpanCpuTime.Measured.NONE;

	SpanRecord(String traceId, String spanId, String parentSpanId, SpanRecord parent, String name, String kind,
			long startEpochNanos, String threadName, AtomicLong chargedTo) {
		this.samples = new SpanSamples(chargedTo);
		this.traceId = traceId;
		this.spanId = spanId;
		this.parentSpanId = parentSpanId;
		this.localRoot = (parent != null) ? parent.localRoot : this;
		this.name = name;
		this.kind = kind;
		this.startEpochNanos = startEpochNanos;
		this.threadName = threadName;
	}

	public String traceId() {
		return this.traceId;
	}

	public String spanId() {
		return this.spanId;
	}

	/**
	 * The parent's span id, or {@code null} for a trace root; the parent may live in
	 * another process.
	 */
	public String parentSpanId() {
		return this.parentSpanId;
	}

	/**
	 * The outermost span of this trace in this process: the entry point of the request
	 * here.
	 */
	public SpanRecord localRoot() {
		return this.localRoot;
	}

	public boolean isLocalRoot() {
		return this.localRoot == this;
	}

	public String name() {
		return this.name;
	}

	public String kind() {
		return this.kind;
	}

	public String status() {
		return this.status;
	}

	public long startEpochNanos() {
		return this.startEpochNanos;
	}

	public long endEpochNanos() {
		return this.endEpochNanos;
	}

	public boolean inFlight() {
		return this.endEpochNanos == 0;
	}

	/** Thread the span started on. */
	public String threadName() {
		return this.threadName;
	}

	/** Duration so far for an in-flight span, as of {@code nowEpochNanos}. */
	public long durationNanos(long nowEpochNanos) {
		long end = inFlight() ? nowEpochNanos : this.endEpochNanos;
		return Math.max(0, end - this.startEpochNanos);
	}

	void ended(String finalName, String finalStatus, long endEpochNanos) {
		if (finalName != null) {
			this.name = finalName;
		}
		if (finalStatus != null) {
			this.status = finalStatus;
		}
		this.endEpochNanos = endEpochNanos;
	}

	/** Why this span is still stored: the reason its request (local root) is kept. */
	public RetainedAs retainedAs() {
		return this.localRoot.retainedAs;
	}

	void retainedAs(RetainedAs reason) {
		this.retainedAs = reason;
	}

	/**
	 * Whether its caller asked for this request's profile (an on-demand header, a
	 * capture): kept as {@link RetainedAs#FORCED} when it ends, and marked so in the
	 * views even once released.
	 */
	public boolean isForced() {
		return this.localRoot.forced;
	}

	/**
	 * The name of the capture that forced this request ({@code POST {"capture": …}}),
	 * {@code null} when none did (a request forced by its header, or not forced).
	 */
	public String capture() {
		return this.localRoot.capture;
	}

	void force(String capture) {
		this.capture = capture;
		this.forced = true;
	}

	boolean isEvicted() {
		return this.evicted;
	}

	/**
	 * Out of the store for good: samples are refused (not merely out of sight while it
	 * awaits them).
	 */
	synchronized boolean isGone() {
		return this.evicted && !this.samples.isTaken();
	}

	/**
	 * Mark this span evicted and refund its samples' bytes to the account they were
	 * charged to, once. Under the same lock as {@link #addSample}: a sample either lands
	 * before (and is refunded here) or sees the eviction and is dropped.
	 */
	synchronized void evict() {
		this.evicted = true;
		this.samples.moveCharge(null);
	}

	/**
	 * The CPU time of this span's request (its local root's), measured on its threads'
	 * clocks, as the last change left it.
	 */
	public SpanCpuTime.Measured measuredCpu() {
		return this.localRoot.measuredCpu;
	}

	/**
	 * Collector thread only, the one writer: {@code change} applied to the request's
	 * measured figures, published in one volatile write.
	 */
	public void measureCpu(UnaryOperator<SpanCpuTime.Measured> change) {
		SpanRecord root = this.localRoot;
		root.measuredCpu = change.apply(root.measuredCpu);
	}

	/**
	 * Out of the store, but still taking the samples joined to it until its profile is
	 * complete: its bytes move from the store's account to {@code awaiting}, and later
	 * samples are charged there.
	 * @return whether it moved (false if it was already gone)
	 */
	synchronized boolean awaitSamples(AtomicLong awaiting) {
		if (!this.samples.isTaken()) {
			return false;
		}
		this.evicted = true;
		this.samples.moveCharge(awaiting);
		return true;
	}

	/**
	 * Add a child unless this span is out of the store already. Under the lock that marks
	 * it evicted, and a walk that takes a group out marks the parent before it reads its
	 * children: a child is either among them, and goes with the group, or refused, and
	 * never left behind where no walk reaches it.
	 * @return whether it was added
	 */
	synchronized boolean addChild(SpanRecord child) {
		if (this.evicted) {
			return false;
		}
		// Its samples are charged where its request's are (a protected request's share):
		// a group moves between accounts as a whole, parents first, under each one's
		// lock.
		child.chargeTo(this.samples.account());
		this.children.add(child);
		return true;
	}

	/**
	 * Charge this span's samples, those it holds and later ones, to {@code account} (the
	 * store's, or the share of protected requests); nothing once it is gone.
	 */
	synchronized void chargeTo(AtomicLong account) {
		if (this.samples.isTaken() && this.samples.account() != account) {
			this.samples.moveCharge(account);
		}
	}

	/** Direct children started in this process. */
	public synchronized List<SpanRecord> children() {
		// Most spans have none, and eviction asks every span it drops.
		return this.children.isEmpty() ? List.of() : new ArrayList<>(this.children);
	}

	/**
	 * Add a sample unless this span is gone, charging the bytes it adds to its account
	 * before the lock is released, so that {@link #evict} can never refund less than was
	 * charged.
	 * @return whether the sample added bytes
	 */
	synchronized boolean addSample(SampleKind kind, int[] rootFirstStack, long weight) {
		return this.samples.add(kind, rootFirstStack, weight);
	}

	/**
	 * As {@link #addSample(SampleKind, int[], long)}, also placing the sample on the
	 * span's timeline at {@code epochNanos} on the thread {@code threadId}, whose name is
	 * {@code threadName} when known.
	 */
	synchronized boolean addSample(SampleKind kind, int[] rootFirstStack, long weight, long epochNanos, long threadId,
			String threadName) {
		return this.samples.add(kind, rootFirstStack, weight, epochNanos, threadId, threadName);
	}

	/** This span's own samples with their times and threads (not its children's). */
	public synchronized TimelineSamples ownTimeline() {
		return this.samples.timeline();
	}

	/**
	 * This span's own samples of {@code kind} taken between {@code fromEpochNanos} and
	 * {@code toEpochNanos} (the end excluded), from its timeline: a wait that overlaps
	 * the stretch counts with the part of it inside. Samples the timeline had no room for
	 * are missing (see {@link TimelineSamples#dropped()}).
	 */
	public synchronized StackTree ownSamples(SampleKind kind, long fromEpochNanos, long toEpochNanos) {
		return this.samples.within(kind, fromEpochNanos, toEpochNanos);
	}

	/** Samples of {@code kind} attributed to this span itself (not its children). */
	public synchronized long ownSampleCount(SampleKind kind) {
		return this.samples.weight(kind);
	}

	/**
	 * Events of {@code kind} attributed to this span itself, where the kind
	 * {@link SampleKind#countsEvents()}.
	 */
	public synchronized long ownEventCount(SampleKind kind) {
		return this.samples.events(kind);
	}

	/** Heap held by this span's own samples, as charged to the store. */
	synchronized long ownSampleBytes() {
		return this.samples.bytes();
	}

	/**
	 * A copy of this span's own samples of {@code kind}, safe to render while sampling
	 * goes on.
	 */
	public synchronized StackTree ownSamples(SampleKind kind) {
		return this.samples.tree(kind);
	}

	/**
	 * Add this span's own samples to {@code trees}, by {@link SampleKind#ordinal()}
	 * ({@code null} where none so far: the span's own copy takes the place), under one
	 * lock for every kind.
	 * @return the span's children at that moment
	 */
	synchronized List<SpanRecord> addOwnSamplesTo(StackTree[] trees) {
		for (SampleKind kind : SampleKind.values()) {
			if (this.samples.weight(kind) == 0) {
				continue;
			}
			StackTree own = this.samples.tree(kind);
			StackTree sum = trees[kind.ordinal()];
			if (sum == null) {
				trees[kind.ordinal()] = own;
			}
			else {
				sum.addAll(own);
			}
		}
		return children();
	}

}
