package dev.spanprofile.benchmarks.hook;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * The yardstick for the hook: one {@code System.nanoTime()}, the clock every change point
 * reads.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClockReadBenchmark {

	@Benchmark
	public long nanoTime() {
		return System.nanoTime();
	}

}
