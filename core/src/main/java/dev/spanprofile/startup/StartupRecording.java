package dev.spanprofile.startup;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;

/**
 * The application's start as a tree of {@link StartupStep}s under one root, the whole
 * start: each step, while it is the innermost one on its thread, is that thread's
 * activity (through {@code activate}), so the samples taken there are its own.
 * <p>
 * Bounded: at most {@link StartupSettings#maxSteps()} steps, graphs within
 * {@link StartupSettings#maxBytes()}, and once the start is over and its samples are in
 * ({@link #keepSlowestGraphs}) only the graphs of the steps with the most own time. Steps
 * begun after {@link #finish} (a lazy bean made by a request) are not recorded: the start
 * is over.
 */
public final class StartupRecording {

	/** Rough heap cost of one stack-tree node, for the budget. */
	static final int BYTES_PER_NODE = 64;

	/** Rough heap cost of one step's figures. */
	static final int BYTES_PER_STEP = 256;

	private static final String[] CLASS_LOADING_FRAMES = { "java.lang.ClassLoader.loadClass",
			"java.lang.ClassLoader.defineClass", "java.lang.ClassLoader.findClass",
			"jdk.internal.loader.BuiltinClassLoader.loadClass", "java.lang.Class.forName",
			"java.lang.System$2.defineClass", "SystemDictionary::", "ClassFileParser::", "ClassLoader::load_class",
			"Verifier::", "ClassVerifier::", "JVM_DefineClass", "KlassFactory::" };

	private final StartupSettings settings;

	private final FrameTable frames;

	private final LongSupplier clock;

	private final CoreWaitClock coreWait;

	private final Consumer<Object> activate;

	private final ThreadLocal<StartupStep> current = new ThreadLocal<>();

	private final List<StartupStep> steps = new ArrayList<>();

	private final AtomicInteger ids = new AtomicInteger();

	private final AtomicLong nodes = new AtomicLong();

	private final AtomicLong notRecorded = new AtomicLong();

	private final StackTree[] whole = new StackTree[SampleKind.values().length];

	private final long[] wholeWeights = new long[SampleKind.values().length];

	private long wholeClassLoadingCpu;

	/** Collector thread only: frames known to load classes, and frames looked at. */
	private final BitSet classLoadingFrames = new BitSet();

	private final BitSet seenFrames = new BitSet();

	private final StartupStep root;

	private final FirstRequests firstRequests = new FirstRequests(this);

	private volatile boolean finished;

	private volatile boolean graphsPruned;

	private volatile long jitNanos = -1;

	private volatile long classesLoaded = -1;

	/**
	 * Begins the recording with its root step, {@code rootName}, on the calling thread,
	 * without the steps' time waiting for a core.
	 * @param clock epoch nanoseconds now, on the samples' clock
	 * @param activate told, on a thread, the step now innermost there ({@code null} for
	 * none): the thread's activity for the samples' join
	 */
	public StartupRecording(StartupSettings settings, FrameTable frames, LongSupplier clock, Consumer<Object> activate,
			String rootName, long startEpochNanos) {
		this(settings, frames, clock, CoreWaitClock.NONE, activate, rootName, startEpochNanos);
	}

	/**
	 * Begins the recording with its root step, {@code rootName}, on the calling thread.
	 * @param clock epoch nanoseconds now, on the samples' clock
	 * @param coreWait the calling thread's time waiting for a core, read where a step
	 * begins and ends on its thread; closed when the start is over
	 * @param activate told, on a thread, the step now innermost there ({@code null} for
	 * none): the thread's activity for the samples' join
	 */
	public StartupRecording(StartupSettings settings, FrameTable frames, LongSupplier clock, CoreWaitClock coreWait,
			Consumer<Object> activate, String rootName, long startEpochNanos) {
		this.settings = settings;
		this.frames = frames;
		this.clock = clock;
		this.coreWait = coreWait;
		this.activate = activate;
		// Read from here, not from startEpochNanos (an earlier moment): the root's wait
		// for a core misses what came before, which no child holds either.
		this.root = new StartupStep(this.ids.getAndIncrement(), null, rootName, Thread.currentThread().getId(),
				Thread.currentThread().getName(), startEpochNanos, coreWait.nanos(), this);
		this.steps.add(this.root);
		this.current.set(this.root);
		activate.accept(this.root);
	}

	/**
	 * The first request of each name after the start, for the engine to hand complete
	 * requests to.
	 */
	public FirstRequests firstRequests() {
		return this.firstRequests;
	}

	/** Epoch nanoseconds now, on the clock the steps' times are read from. */
	public long now() {
		return this.clock.getAsLong();
	}

	/**
	 * The calling thread's time waiting for a core so far, in nanoseconds; negative where
	 * it is not measured. Read after {@link #now()} where a step begins or ends: a thread
	 * switched out on its way back from this read (where a busy machine switches most)
	 * then has that wait after both readings, inside a step that begins there and outside
	 * one that ends there.
	 */
	public long coreWaitNow() {
		return this.coreWait.nanos();
	}

	/** Whether the steps' time waiting for a core is read. */
	public boolean measuresCoreWait() {
		return this.coreWait != CoreWaitClock.NONE;
	}

	public StartupSettings settings() {
		return this.settings;
	}

	/** The whole start. */
	public StartupStep root() {
		return this.root;
	}

	/**
	 * A step begins on the calling thread, inside the step innermost there (or the whole
	 * start): {@code null} when it is not recorded (the start is over, or
	 * {@link StartupSettings#maxSteps()} are).
	 */
	public StartupStep begin(String name) {
		long startEpochNanos = this.clock.getAsLong();
		return begin(name, startEpochNanos, coreWaitNow());
	}

	/**
	 * A step begins on the calling thread, as {@link #begin(String)}, at
	 * {@code startEpochNanos}: a time read with {@link #now()} beside another record of
	 * the same step, so that both give it the same duration whatever this bookkeeping
	 * costs; its thread had waited {@code coreWaitNanos} for a core by then (read with
	 * {@link #coreWaitNow()} after the time, negative where not).
	 */
	public StartupStep begin(String name, long startEpochNanos, long coreWaitNanos) {
		if (this.finished) {
			return null;
		}
		StartupStep parent = this.current.get();
		Thread thread = Thread.currentThread();
		StartupStep step;
		synchronized (this.steps) {
			if (this.steps.size() >= this.settings.maxSteps()) {
				this.notRecorded.incrementAndGet();
				return null;
			}
			step = new StartupStep(this.ids.getAndIncrement(), (parent != null) ? parent : this.root, name,
					thread.getId(), thread.getName(), startEpochNanos, coreWaitNanos, this);
			this.steps.add(step);
		}
		this.current.set(step);
		this.activate.accept(step);
		return step;
	}

	/**
	 * {@code step} ends: on its thread, its parent is innermost again where it ran there
	 * too.
	 */
	public void end(StartupStep step) {
		long endEpochNanos = this.clock.getAsLong();
		end(step, endEpochNanos, coreWaitNow());
	}

	/**
	 * {@code step} ends at {@code endEpochNanos}, read with {@link #now()}, its thread
	 * having waited {@code coreWaitNanos} for a core by then (read with
	 * {@link #coreWaitNow()} after the time; negative where not); as
	 * {@link #end(StartupStep)}.
	 */
	public void end(StartupStep step, long endEpochNanos, long coreWaitNanos) {
		// Another thread's figure says nothing of the step's.
		step.ended(endEpochNanos, (Thread.currentThread().getId() == step.threadId()) ? coreWaitNanos : -1);
		if (this.current.get() != step) {
			// Ended on another thread, or out of order: its own thread moves on by
			// itself.
			return;
		}
		StartupStep parent = step.parent();
		if (parent != null && parent.threadId() == step.threadId() && !this.finished) {
			this.current.set(parent);
			this.activate.accept(parent);
		}
		else {
			this.current.remove();
			this.activate.accept(null);
		}
	}

	/**
	 * The start is over (the application is ready, or failed to start): the root ends,
	 * nothing more is recorded, and the calling thread is no longer in it.
	 * @param jitNanos time the JIT compilers spent compiling during the start, negative
	 * when unknown
	 * @param classesLoaded classes loaded during the start, negative when unknown
	 */
	public void finish(long jitNanos, long classesLoaded) {
		if (this.finished) {
			return;
		}
		this.jitNanos = jitNanos;
		this.classesLoaded = classesLoaded;
		this.finished = true;
		long endEpochNanos = this.clock.getAsLong();
		long coreWaitNanos = (Thread.currentThread().getId() == this.root.threadId()) ? coreWaitNow() : -1;
		this.root.ended(endEpochNanos, coreWaitNanos);
		this.current.remove();
		this.activate.accept(null);
		// The steps still running on other threads (none, in a start that waits for its
		// background work) end without the figure.
		this.coreWait.close();
	}

	public boolean isFinished() {
		return this.finished;
	}

	/** Compilation time of the JIT compilers during the start; negative when unknown. */
	public long jitNanos() {
		return this.jitNanos;
	}

	public long classesLoaded() {
		return this.classesLoaded;
	}

	/** Steps left unrecorded past {@link StartupSettings#maxSteps()}. */
	public long notRecorded() {
		return this.notRecorded.get();
	}

	/** Every recorded step, the root first, in the order they began. */
	public List<StartupStep> steps() {
		synchronized (this.steps) {
			return new ArrayList<>(this.steps);
		}
	}

	public StartupStep find(int id) {
		synchronized (this.steps) {
			return (id >= 0 && id < this.steps.size() && this.steps.get(id).id() == id) ? this.steps.get(id) : null;
		}
	}

	/**
	 * Each step's own time: its duration less that of its children on its thread (a child
	 * on another thread ran beside it, not inside it).
	 */
	public Map<StartupStep, Long> ownNanos(long nowEpochNanos) {
		List<StartupStep> all = steps();
		Map<StartupStep, Long> own = new HashMap<>(all.size() * 2);
		for (StartupStep step : all) {
			own.merge(step, step.durationNanos(nowEpochNanos), Long::sum);
			StartupStep parent = step.parent();
			if (parent != null && parent.threadId() == step.threadId()) {
				own.merge(parent, -step.durationNanos(nowEpochNanos), Long::sum);
			}
		}
		own.replaceAll((step, nanos) -> Math.max(0, nanos));
		return own;
	}

	/**
	 * Each step's own time waiting for a core, as {@link #ownNanos own time} is counted:
	 * its thread's wait while it ran less its children's on its thread. Negative where
	 * not known: not measured, still running, or a child on its thread not read.
	 */
	public Map<StartupStep, Long> ownCoreWaitNanos() {
		List<StartupStep> all = steps();
		Map<StartupStep, Long> own = new HashMap<>(all.size() * 2);
		for (StartupStep step : all) {
			own.put(step, step.coreWaitNanos());
		}
		for (StartupStep step : all) {
			StartupStep parent = step.parent();
			if (parent != null && parent.threadId() == step.threadId()) {
				long parentOwn = own.get(parent);
				long child = step.coreWaitNanos();
				// A child's stretch lies inside its parent's on their thread: the
				// figure, which only grows, is at least as large for the parent.
				own.put(parent, (parentOwn < 0 || child < 0) ? -1 : Math.max(0, parentOwn - child));
			}
		}
		return own;
	}

	/**
	 * Once the start is over and every sample up to its end is joined: keep the graphs of
	 * the {@link StartupSettings#maxGraphs()} steps with the most own time, drop the
	 * others' (their figures stay). Once; later calls do nothing.
	 * @param joinedUpToEpochNanos samples taken up to this have been joined
	 */
	public void keepSlowestGraphs(long joinedUpToEpochNanos) {
		if (!this.finished || this.graphsPruned || joinedUpToEpochNanos < this.root.endEpochNanos()) {
			return;
		}
		synchronized (this) {
			if (this.graphsPruned) {
				return;
			}
			Map<StartupStep, Long> own = ownNanos(this.clock.getAsLong());
			List<StartupStep> ranked = new ArrayList<>(own.keySet());
			ranked.sort(Comparator.comparingLong((StartupStep step) -> own.get(step)).reversed());
			for (int i = this.settings.maxGraphs(); i < ranked.size(); i++) {
				this.nodes.addAndGet(-ranked.get(i).dropGraphs());
			}
			this.graphsPruned = true;
		}
	}

	/** Approximate heap held by the recording. */
	public long approximateBytes() {
		int count;
		synchronized (this.steps) {
			count = this.steps.size();
		}
		return this.nodes.get() * BYTES_PER_NODE + (long) count * BYTES_PER_STEP;
	}

	/** All samples of the start of {@code kind} merged, within the budget. */
	public synchronized StackTree whole(SampleKind kind) {
		StackTree tree = this.whole[kind.ordinal()];
		return (tree != null) ? tree.copy() : new StackTree();
	}

	/** All samples' weight of {@code kind}, those beyond the budget included. */
	public synchronized long wholeWeight(SampleKind kind) {
		return this.wholeWeights[kind.ordinal()];
	}

	public synchronized long wholeClassLoadingCpuSamples() {
		return this.wholeClassLoadingCpu;
	}

	/** Whether there is room for a stack of {@code depth} more nodes. */
	boolean admitsStack(int depth) {
		return (this.nodes.get() + depth) * BYTES_PER_NODE <= this.settings.maxBytes();
	}

	void grew(int addedNodes) {
		this.nodes.addAndGet(addedNodes);
	}

	synchronized void addToWhole(SampleKind kind, int[] rootFirstStack, long weight, boolean classLoading) {
		this.wholeWeights[kind.ordinal()] += weight;
		if (classLoading) {
			this.wholeClassLoadingCpu += weight;
		}
		if (admitsStack(rootFirstStack.length)) {
			StackTree tree = this.whole[kind.ordinal()];
			if (tree == null) {
				tree = new StackTree();
				this.whole[kind.ordinal()] = tree;
			}
			int before = tree.nodeCount();
			tree.add(rootFirstStack, weight, kind.countsEvents() ? 1 : 0);
			grew(tree.nodeCount() - before);
		}
	}

	/**
	 * Collector thread only: whether a frame of the stack loads, defines or links a
	 * class.
	 */
	boolean loadsClass(int[] rootFirstStack) {
		for (int frame : rootFirstStack) {
			if (frame < 0) {
				continue;
			}
			if (!this.seenFrames.get(frame)) {
				this.seenFrames.set(frame);
				if (isClassLoading(this.frames.name(frame), this.frames.kind(frame))) {
					this.classLoadingFrames.set(frame);
				}
			}
			if (this.classLoadingFrames.get(frame)) {
				return true;
			}
		}
		return false;
	}

	static boolean isClassLoading(String name, FrameKind kind) {
		if (name == null || kind == FrameKind.WAIT) {
			return false;
		}
		for (String prefix : CLASS_LOADING_FRAMES) {
			if (name.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
