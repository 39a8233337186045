package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.Map;

import dev.spanprofile.benchmarks.overhead.ProcessCpu.ThreadTime;
import dev.spanprofile.benchmarks.overhead.ProcessCpu.Usage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCpuTest {

	@Test
	void aThreadThatEndedTakesNothingOutOfTheInterval() {
		ThreadTime compiler = new ThreadTime(1_000, true, false, false);
		Usage before = Usage
			.of(Map.of("11", compiler, "12", request(500), "13", new ThreadTime(40, false, true, false)));
		// The compiler thread 11 ended; 14 is a compiler thread started since.
		Usage after = Usage.of(Map.of("12", request(700), "13", new ThreadTime(60, false, true, false), "14",
				new ThreadTime(100, true, false, false)));
		Usage used = after.minus(before);
		assertThat(used.total()).isEqualTo(Duration.ofNanos(200 + 20 + 100));
		assertThat(used.compiler()).isEqualTo(Duration.ofNanos(100));
		assertThat(used.collector()).isEqualTo(Duration.ofNanos(20));
		assertThat(used.requestThreads()).isEqualTo(Duration.ofNanos(200));
	}

	private static ThreadTime request(long runNanos) {
		return new ThreadTime(runNanos, false, false, true);
	}

	@Test
	void aThreadIdGivenToANewThreadCountsTheNewThreadWhole() {
		Usage before = Usage.of(Map.of("21", new ThreadTime(5_000, false, false, false)));
		Usage after = Usage.of(Map.of("21", new ThreadTime(300, false, false, false)));
		assertThat(after.minus(before).total()).isEqualTo(Duration.ofNanos(300));
	}

	@Test
	void theApplicationsOwnThreadsAreRead() {
		ProcessCpu cpu = new ProcessCpu(ProcessHandle.current());
		Usage first = cpu.used();
		long x = 0;
		for (long end = System.nanoTime() + 50_000_000; System.nanoTime() < end;) {
			x += System.nanoTime() % 7;
		}
		Usage used = cpu.used().minus(first);
		System.out.println("burned " + used.total() + " (" + x + ")");
		// This thread spun for 50 ms of wall time: most of it is CPU, and no thread can
		// add more than the window.
		assertThat(used.total().toMillis()).isBetween(25L, 2_000L);
	}

}
