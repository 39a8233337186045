package dev.spanprofile;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.FrameTable;

/**
 * Wraps the real engine: every collect stalls before it dumps, as a collector thread preempted on a busy machine
 * does, and every sample the engine delivers is counted per frame before it is joined, so a test can compare
 * what the join made of the samples with what the sampler took.
 */
final class StalledCollectEngine implements SamplingEngine {

	private final SamplingEngine delegate;

	private final long stallMillis;

	/** Samples whose stack contains a frame, by frame id; the collector thread writes, tests read after it stopped. */
	private final Map<Integer, Long> samplesWithFrame = new HashMap<>();

	StalledCollectEngine(SamplingEngine delegate, long stallMillis) {
		this.delegate = delegate;
		this.stallMillis = stallMillis;
	}

	/** Samples delivered so far whose stack contains a method ending in {@code .method}. */
	synchronized long samplesIn(String method, FrameTable frames) {
		long count = 0;
		for (Map.Entry<Integer, Long> entry : this.samplesWithFrame.entrySet()) {
			if (frames.name(entry.getKey()).endsWith("." + method)) {
				count += entry.getValue();
			}
		}
		return count;
	}

	@Override
	public long collect(SampleSink sink) throws IOException {
		try {
			Thread.sleep(this.stallMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return this.delegate.collect((kind, threadId, time, stack, weight) -> {
			count(stack, weight);
			sink.sample(kind, threadId, time, stack, weight);
		});
	}

	private synchronized void count(int[] stack, long weight) {
		Set<Integer> seen = new HashSet<>();
		for (int frame : stack) {
			if (seen.add(frame)) {
				this.samplesWithFrame.merge(frame, weight, Long::sum);
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
