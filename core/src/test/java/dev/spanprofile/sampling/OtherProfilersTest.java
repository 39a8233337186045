package dev.spanprofile.sampling;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OtherProfilersTest {

	@Test
	void findsAsyncProfilerCopiesMappedIntoTheProcess() {
		List<String> maps = List.of("7f01-7f02 r-xp 00000000 fd:00 123 /usr/lib/x86_64-linux-gnu/libc.so.6",
				"7f03-7f04 r-xp 00000000 fd:00 456 /tmp/libasyncProfiler-12345.so (deleted)",
				"7f03-7f04 r--p 00001000 fd:00 456 /tmp/libasyncProfiler-12345.so (deleted)",
				"7f05-7f06 r-xp 00000000 fd:00 789 /tmp/pyroscope/libasyncProfiler-linux-x64-abc.so",
				"7f07-7f08 rw-p 00000000 00:00 0 [heap]");
		assertThat(OtherProfilers.mappedLibraries(maps)).containsExactly("/tmp/libasyncProfiler-12345.so",
				"/tmp/pyroscope/libasyncProfiler-linux-x64-abc.so");
	}

	@Test
	void findsProfilingAgentsOnTheCommandLine() {
		assertThat(OtherProfilers.fromJvmArguments(
				List.of("-Xmx1g", "-agentpath:/opt/async-profiler/lib/libasyncProfiler.so=start,event=cpu",
						"-javaagent:/opt/pyroscope.jar", "-javaagent:/opt/opentelemetry-javaagent.jar")))
			.hasSize(2)
			.allSatisfy((found) -> assertThat(found).startsWith("JVM argument"));
	}

}
