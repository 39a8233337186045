package dev.spanprofile.render;

import java.util.function.DoubleFunction;

/**
 * How sure a CPU time counted from samples is: {@code samples} samples, each standing for
 * {@code sampleNanos}, give a range rather than a number. It may be off by the wider of
 * one sample (a sampling clock rounds each stretch on a CPU to whole intervals) and the
 * square root of the count (one standard deviation of a Poisson count, which short bursts
 * on a CPU, each sampled or not by chance, make it): a guide to how sure the figure is,
 * not a hard bound.
 *
 * @param samples the samples the estimate rests on
 * @param sampleNanos the CPU time one of them stands for
 */
record CpuRange(long samples, long sampleNanos) {

	private double spreadSamples() {
		return Math.max(1, Math.sqrt(this.samples));
	}

	long lowNanos() {
		return Math.round(Math.max(0, this.samples - spreadSamples()) * this.sampleNanos);
	}

	long highNanos() {
		return Math.round((this.samples + spreadSamples()) * this.sampleNanos);
	}

	/** {@code 1 sample at 20.0 ms: 0.0 ms to 40.0 ms}. */
	String text(DoubleFunction<String> millis) {
		return this.samples + ((this.samples == 1) ? " sample" : " samples") + " at "
				+ millis.apply(this.sampleNanos / 1e6) + ": " + millis.apply(lowNanos() / 1e6) + " to "
				+ millis.apply(highNanos() / 1e6);
	}

}
