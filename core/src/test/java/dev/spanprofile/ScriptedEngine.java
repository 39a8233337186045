package dev.spanprofile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;

/**
 * An engine that samples nothing by itself: it delivers the samples a test gives it,
 * stamped when the test says, and promises delivery up to what the test says. For
 * orderings a real sampler produces only by chance.
 */
final class ScriptedEngine implements SamplingEngine {

	private final List<Sample> queued = new ArrayList<>();

	private volatile LongSupplier deliveredUpTo = System::nanoTime;

	private volatile Runnable onStart = () -> {
	};

	/** Deliver this sample at the next collect. */
	synchronized void deliver(SampleKind kind, long javaThreadId, long monotonicNanos, int[] stack) {
		this.queued.add(new Sample(kind, javaThreadId, monotonicNanos, stack));
	}

	/**
	 * What each collect promises (System.nanoTime clock); the time of the collect unless
	 * set.
	 */
	void deliveredUpTo(LongSupplier upTo) {
		this.deliveredUpTo = upTo;
	}

	/**
	 * Run at each start, once sampling would have begun: say, to stamp a sample taken
	 * right then.
	 */
	void onStart(Runnable action) {
		this.onStart = action;
	}

	@Override
	public String name() {
		return "scripted";
	}

	@Override
	public void start() {
		this.onStart.run();
	}

	@Override
	public long collect(SampleSink sink) {
		long upTo = this.deliveredUpTo.getAsLong();
		List<Sample> samples;
		synchronized (this) {
			samples = new ArrayList<>(this.queued);
			this.queued.clear();
		}
		for (Sample sample : samples) {
			sink.sample(sample.kind, sample.javaThreadId, sample.monotonicNanos, sample.stack, 1);
		}
		return upTo;
	}

	@Override
	public String activeEvent() {
		return "cpu";
	}

	@Override
	public void close() {
	}

	private record Sample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] stack) {
	}

}
