package dev.spanprofile.startup;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.spanprofile.attribution.SampledActivity;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * One step of the start (a bean's instantiation, an auto-configuration class, the context
 * refresh): when and on which thread it ran, and the samples taken on that thread while
 * it was the innermost step there, its own, apart from its children's. Samples arrive on
 * the collector thread, views read from any thread: guarded by this object.
 */
public final class StartupStep implements SampledActivity {

	private static final int KINDS = SampleKind.values().length;

	private final int id;

	private final StartupStep parent;

	private final int depth;

	private final String name;

	private final Map<String, String> tags = new LinkedHashMap<>(2);

	private final long threadId;

	private final String threadName;

	private final long startEpochNanos;

	/** 0 while running. */
	private volatile long endEpochNanos;

	/** Its thread's time waiting for a core when it began; negative where not read. */
	private final long coreWaitAtStart;

	/**
	 * Its thread's time waiting for a core when it ended there; negative while running or
	 * where not read (or it ended on another thread).
	 */
	private volatile long coreWaitAtEnd = -1;

	private final StartupRecording recording;

	/** Own samples per kind while kept; {@code null} entries where none arrived. */
	private StackTree[] trees = new StackTree[KINDS];

	private final long[] weights = new long[KINDS];

	/** Own CPU samples whose stack was loading a class. */
	private long classLoadingCpu;

	StartupStep(int id, StartupStep parent, String name, long threadId, String threadName, long startEpochNanos,
			long coreWaitAtStart, StartupRecording recording) {
		this.id = id;
		this.parent = parent;
		this.depth = (parent != null) ? parent.depth + 1 : 0;
		this.name = name;
		this.threadId = threadId;
		this.threadName = threadName;
		this.startEpochNanos = startEpochNanos;
		this.coreWaitAtStart = coreWaitAtStart;
		this.recording = recording;
	}

	public int id() {
		return this.id;
	}

	/** The step it ran in, {@code null} for the whole start. */
	public StartupStep parent() {
		return this.parent;
	}

	public int depth() {
		return this.depth;
	}

	public String name() {
		return this.name;
	}

	/**
	 * What the step worked on, from its tags: a bean's name, a configuration class;
	 * {@code null} when untagged.
	 */
	public synchronized String detail() {
		String bean = this.tags.get("beanName");
		if (bean != null) {
			return bean;
		}
		return this.tags.isEmpty() ? null : this.tags.values().iterator().next();
	}

	public synchronized Map<String, String> tags() {
		return Collections.unmodifiableMap(new LinkedHashMap<>(this.tags));
	}

	/** Tags beyond a handful are not kept: they describe, they are not data. */
	public synchronized void tag(String key, String value) {
		if (this.tags.size() < 8 && key != null && value != null) {
			this.tags.put(key, (value.length() > 200) ? value.substring(0, 200) + "…" : value);
		}
	}

	public long threadId() {
		return this.threadId;
	}

	public String threadName() {
		return this.threadName;
	}

	public long startEpochNanos() {
		return this.startEpochNanos;
	}

	/** 0 while running. */
	public long endEpochNanos() {
		return this.endEpochNanos;
	}

	public boolean isRunning() {
		return this.endEpochNanos == 0;
	}

	/** Its duration, up to {@code nowEpochNanos} while it runs. */
	public long durationNanos(long nowEpochNanos) {
		long end = this.endEpochNanos;
		return Math.max(0, ((end != 0) ? end : nowEpochNanos) - this.startEpochNanos);
	}

	/**
	 * How long its thread waited for a core while it ran, its children's waits included,
	 * as the kernel counted it at its beginning and end; negative while it runs or where
	 * not read at both.
	 */
	public long coreWaitNanos() {
		long end = this.coreWaitAtEnd;
		return (this.coreWaitAtStart >= 0 && end >= 0 && !isRunning()) ? Math.max(0, end - this.coreWaitAtStart) : -1;
	}

	/**
	 * It ended at {@code epochNanos}, its thread having waited {@code coreWaitNanos} for
	 * a core by then (negative: not read there).
	 */
	void ended(long epochNanos, long coreWaitNanos) {
		this.coreWaitAtEnd = coreWaitNanos;
		this.endEpochNanos = Math.max(epochNanos, this.startEpochNanos);
	}

	@Override
	public void addSample(SampleKind kind, int[] rootFirstStack, long weight, long epochNanos) {
		boolean classLoading = kind == SampleKind.CPU && this.recording.loadsClass(rootFirstStack);
		boolean keepStack = this.recording.admitsStack(rootFirstStack.length);
		synchronized (this) {
			this.weights[kind.ordinal()] += weight;
			if (classLoading) {
				this.classLoadingCpu += weight;
			}
			if (keepStack && this.trees != null) {
				StackTree tree = this.trees[kind.ordinal()];
				if (tree == null) {
					tree = new StackTree();
					this.trees[kind.ordinal()] = tree;
				}
				int before = tree.nodeCount();
				tree.add(rootFirstStack, weight, kind.countsEvents() ? 1 : 0);
				this.recording.grew(tree.nodeCount() - before);
			}
		}
		this.recording.addToWhole(kind, rootFirstStack, weight, classLoading);
	}

	/** Its own samples' total weight of {@code kind} (counts for CPU and wall). */
	public synchronized long weight(SampleKind kind) {
		return this.weights[kind.ordinal()];
	}

	/** Its own CPU samples taken while loading a class. */
	public synchronized long classLoadingCpuSamples() {
		return this.classLoadingCpu;
	}

	/**
	 * A copy of its own samples of {@code kind}; {@code null} when its graph was not kept
	 * (over the budget) and an empty tree when it had none.
	 */
	public synchronized StackTree samples(SampleKind kind) {
		if (this.trees == null) {
			return null;
		}
		StackTree tree = this.trees[kind.ordinal()];
		return (tree != null) ? tree.copy() : new StackTree();
	}

	public synchronized boolean hasGraph() {
		return this.trees != null;
	}

	/** Drop its graphs, keeping its figures. */
	synchronized int dropGraphs() {
		if (this.trees == null) {
			return 0;
		}
		int nodes = 0;
		for (StackTree tree : this.trees) {
			nodes += (tree != null) ? tree.nodeCount() : 0;
		}
		this.trees = null;
		return nodes;
	}

	@Override
	public String toString() {
		String detail = detail();
		return this.name + ((detail != null) ? " " + detail : "");
	}

}
