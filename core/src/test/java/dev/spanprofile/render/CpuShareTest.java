package dev.spanprofile.render;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuShareTest {

	@Test
	void eachCpuSampleStandsForOneInterval() {
		CpuShare share = CpuShare.of(4, Duration.ofMillis(10), 183);
		assertThat(share.cpuMillis()).isEqualTo(40.0);
		assertThat(share).hasToString("CPU 40.0 ms of 183 ms");
		assertThat(share.mostlyOffCpu()).isTrue();
	}

	@Test
	void halfOrMoreOnACpuIsNotMostlyOffCpu() {
		assertThat(CpuShare.of(10, Duration.ofMillis(10), 200).mostlyOffCpu()).isFalse();
		assertThat(CpuShare.of(9, Duration.ofMillis(10), 200).mostlyOffCpu()).isTrue();
		assertThat(CpuShare.of(150, Duration.ofMillis(10), 1500)).hasToString("CPU 1,500 ms of 1,500 ms");
	}

}
