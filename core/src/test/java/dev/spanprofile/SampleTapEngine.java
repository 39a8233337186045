package dev.spanprofile;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.profile.FrameTable;

/**
 * Wraps the engine and counts, per frame, the samples it delivers before they are joined:
 * what the sampler took, for a test to compare with what the join made of it.
 */
final class SampleTapEngine implements SamplingEngine {

	private final SamplingEngine delegate;

	/** Samples whose stack contains a frame, by kind and frame id. */
	private final Map<SampleKind, Map<Integer, Long>> samplesWithFrame = new EnumMap<>(SampleKind.class);

	SampleTapEngine(SamplingEngine delegate) {
		this.delegate = delegate;
	}

	/**
	 * Samples of a kind delivered so far whose stack contains a method ending in
	 * {@code .method}.
	 */
	synchronized long samplesIn(SampleKind kind, String method, FrameTable frames) {
		long count = 0;
		for (Map.Entry<Integer, Long> entry : this.samplesWithFrame.getOrDefault(kind, Map.of()).entrySet()) {
			if (frames.name(entry.getKey()).endsWith("." + method)) {
				count += entry.getValue();
			}
		}
		return count;
	}

	/**
	 * The latest time an earlier collect said every sample stamped before it had been
	 * delivered.
	 */
	private long vouchedUpTo = Long.MIN_VALUE;

	/**
	 * Weight per kind delivered stamped before {@link #vouchedUpTo}: samples the engine
	 * said it had delivered.
	 */
	private final Map<SampleKind, Map<Long, Long>> late = new EnumMap<>(SampleKind.class);

	/** Weight of a kind that came after a collect had vouched for its timestamp. */
	synchronized long late(SampleKind kind) {
		return lateByThread(kind).values().stream().mapToLong(Long::longValue).sum();
	}

	/** The same by Java thread id. */
	synchronized Map<Long, Long> lateByThread(SampleKind kind) {
		return new HashMap<>(this.late.getOrDefault(kind, Map.of()));
	}

	/** The kind and thread whose samples {@link #timesOf} keeps, or null. */
	private SampleKind timedKind;

	private long timedThread;

	/** When each sample of the timed kind and thread was taken. */
	private final List<Long> times = new ArrayList<>();

	/**
	 * Keeps, from now on, when each sample of a kind on one thread was taken: for a test
	 * whose expected weight depends on where the sampler's samples fell in time.
	 */
	synchronized void keepTimes(SampleKind kind, long javaThreadId) {
		this.timedKind = kind;
		this.timedThread = javaThreadId;
		this.times.clear();
	}

	/**
	 * @return when each sample kept since {@link #keepTimes} was taken, in the order
	 * delivered
	 */
	synchronized List<Long> timesOf() {
		return new ArrayList<>(this.times);
	}

	/** Collection cycles finished, successfully or not. */
	private final AtomicLong collects = new AtomicLong();

	long collects() {
		return this.collects.get();
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		try {
			long upTo = this.delegate.collect((kind, threadId, time, stack, weight) -> {
				count(kind, stack, weight);
				keepTime(kind, threadId, time);
				if (time < this.vouchedUpTo) {
					synchronized (this) {
						this.late.computeIfAbsent(kind, (key) -> new HashMap<>()).merge(threadId, weight, Long::sum);
					}
				}
				sink.sample(kind, threadId, time, stack, weight);
			});
			this.vouchedUpTo = Math.max(this.vouchedUpTo, upTo);
			return upTo;
		}
		finally {
			this.collects.incrementAndGet();
		}
	}

	private synchronized void keepTime(SampleKind kind, long threadId, long time) {
		if (kind == this.timedKind && threadId == this.timedThread) {
			this.times.add(time);
		}
	}

	private synchronized void count(SampleKind kind, int[] stack, long weight) {
		Set<Integer> seen = new HashSet<>();
		Map<Integer, Long> counts = this.samplesWithFrame.computeIfAbsent(kind, (key) -> new HashMap<>());
		for (int frame : stack) {
			if (seen.add(frame)) {
				counts.merge(frame, weight, Long::sum);
			}
		}
	}

	@Override
	public String name() {
		return this.delegate.name();
	}

	@Override
	public void start() throws SamplerUnavailableException {
		this.delegate.start();
	}

	@Override
	public String activeEvent() {
		return this.delegate.activeEvent();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

}
