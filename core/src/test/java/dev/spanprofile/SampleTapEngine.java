package dev.spanprofile;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.store.SampleKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.FrameTable;

/**
 * Wraps the engine and counts, per frame, the samples it delivers before they are joined: what the sampler took,
 * for a test to compare with what the join made of it.
 */
final class SampleTapEngine implements SamplingEngine {

	private final SamplingEngine delegate;

	/** Samples whose stack contains a frame, by kind and frame id. */
	private final Map<SampleKind, Map<Integer, Long>> samplesWithFrame = new EnumMap<>(SampleKind.class);

	SampleTapEngine(SamplingEngine delegate) {
		this.delegate = delegate;
	}

	/** Samples of a kind delivered so far whose stack contains a method ending in {@code .method}. */
	synchronized long samplesIn(SampleKind kind, String method, FrameTable frames) {
		long count = 0;
		for (Map.Entry<Integer, Long> entry : this.samplesWithFrame.getOrDefault(kind, Map.of()).entrySet()) {
			if (frames.name(entry.getKey()).endsWith("." + method)) {
				count += entry.getValue();
			}
		}
		return count;
	}

	/** The latest time an earlier collect said every sample stamped before it had been delivered. */
	private long vouchedUpTo = Long.MIN_VALUE;

	/** Weight per kind delivered stamped before {@link #vouchedUpTo}: samples the engine said it had delivered. */
	private final Map<SampleKind, Long> late = new EnumMap<>(SampleKind.class);

	/** Weight of a kind that came after a collect had vouched for its timestamp. */
	synchronized long late(SampleKind kind) {
		return this.late.getOrDefault(kind, 0L);
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
				if (time < this.vouchedUpTo) {
					synchronized (this) {
						this.late.merge(kind, weight, Long::sum);
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
