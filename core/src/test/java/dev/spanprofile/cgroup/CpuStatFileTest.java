package dev.spanprofile.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CpuStatFileTest {

	@TempDir
	Path root;

	@Test
	void cgroupV2InItsOwnNamespaceReadsTheMountsFileInMicroseconds() throws IOException {
		write("proc/self/cgroup", "0::/\n");
		write("sys/fs/cgroup/cpu.stat", "usage_usec 9000000\nuser_usec 6000000\nsystem_usec 3000000\n"
				+ "nr_periods 120\nnr_throttled 17\nthrottled_usec 850000\nnr_bursts 0\nburst_usec 0\n");
		CpuStatFile file = CpuStatFile.locate(this.root);
		assertThat(file).isNotNull();
		assertThat(file.read()).isEqualTo(new CpuStatFile.Counts(17, 850_000_000L));
	}

	@Test
	void cgroupV2ReadsTheProcesssOwnGroup() throws IOException {
		write("proc/self/cgroup", "0::/system.slice/app.service\n");
		write("sys/fs/cgroup/cpu.stat", "nr_periods 1\nnr_throttled 1\nthrottled_usec 1\n");
		write("sys/fs/cgroup/system.slice/app.service/cpu.stat",
				"nr_periods 50\nnr_throttled 4\nthrottled_usec 2500\n");
		assertThat(CpuStatFile.locate(this.root).read()).isEqualTo(new CpuStatFile.Counts(4, 2_500_000L));
	}

	@Test
	void aHostPathNotUnderTheMountFallsBackToTheMountsOwnFile() throws IOException {
		write("proc/self/cgroup", "0::/kubepods/pod1/abc\n");
		write("sys/fs/cgroup/cpu.stat", "nr_periods 8\nnr_throttled 2\nthrottled_usec 40\n");
		assertThat(CpuStatFile.locate(this.root).read()).isEqualTo(new CpuStatFile.Counts(2, 40_000L));
	}

	@Test
	void cgroupV1ReadsTheCpuControllersFileInNanoseconds() throws IOException {
		write("proc/self/cgroup", "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n");
		write("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.stat",
				"nr_periods 300\nnr_throttled 30\n" + "throttled_time 123456789\n");
		assertThat(CpuStatFile.locate(this.root).read()).isEqualTo(new CpuStatFile.Counts(30, 123_456_789L));
	}

	@Test
	void aGroupWithoutThrottlingCountsIsNone() throws IOException {
		// cgroup v2 without the cpu controller enabled shows its usage only.
		write("proc/self/cgroup", "0::/\n");
		write("sys/fs/cgroup/cpu.stat", "usage_usec 9000000\nuser_usec 6000000\nsystem_usec 3000000\n");
		assertThat(CpuStatFile.locate(this.root)).isNull();
	}

	@Test
	void noControlGroupFilesIsNone() throws IOException {
		assertThat(CpuStatFile.locate(this.root)).isNull();
		write("proc/self/cgroup", "0::/\n");
		assertThat(CpuStatFile.locate(this.root)).isNull();
	}

	@Test
	void aFileThatCannotBeParsedReadsAsNothing() {
		assertThat(CpuStatFile.parse("nr_throttled x\nthrottled_usec 5\n", true)).isNull();
		assertThat(CpuStatFile.parse("nr_throttled 3\nthrottled_time 5\n", true)).isNull();
		assertThat(CpuStatFile.parse("nr_throttled 3\nthrottled_time 5\n", false))
			.isEqualTo(new CpuStatFile.Counts(3, 5));
	}

	private void write(String path, String text) throws IOException {
		Path file = this.root.resolve(path);
		Files.createDirectories(file.getParent());
		Files.writeString(file, text);
	}

}
