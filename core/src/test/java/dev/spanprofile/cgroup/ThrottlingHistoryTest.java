package dev.spanprofile.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ThrottlingHistoryTest {

	private static final long SECOND = 1_000_000_000L;

	@TempDir
	Path root;

	private final AtomicLong clock = new AtomicLong(100 * SECOND);

	private ThrottlingHistory history;

	@BeforeEach
	void container() throws IOException {
		Files.createDirectories(this.root.resolve("proc/self"));
		Files.writeString(this.root.resolve("proc/self/cgroup"), "0::/\n");
		Files.createDirectories(this.root.resolve("sys/fs/cgroup"));
		counts(0, 0);
		this.history = ThrottlingHistory.of(this.root, this.clock::get);
		assertThat(this.history.available()).isTrue();
	}

	@Test
	void aRequestIsToldTheThrottlingBetweenTheReadingsAroundIt() throws IOException {
		readAt(100, 0, 0);
		readAt(103, 5, 40_000);
		readAt(106, 12, 95_000);
		// A request from 103.5 s to 105 s: between the readings at 103 and 106.
		ThrottlingHistory.Throttled throttled = this.history.during(103 * SECOND + SECOND / 2, 105 * SECOND);
		assertThat(throttled).isEqualTo(new ThrottlingHistory.Throttled(7, 55_000_000L, 3 * SECOND));
		// One spanning the three readings: from the first.
		assertThat(this.history.during(101 * SECOND, 104 * SECOND))
			.isEqualTo(new ThrottlingHistory.Throttled(12, 95_000_000L, 6 * SECOND));
	}

	@Test
	void noThrottlingAroundARequestIsNothing() throws IOException {
		readAt(100, 5, 40_000);
		readAt(103, 5, 40_000);
		readAt(106, 9, 60_000);
		assertThat(this.history.during(101 * SECOND, 102 * SECOND)).isNull();
		assertThat(this.history.during(104 * SECOND, 105 * SECOND)).isNotNull();
	}

	@Test
	void aRequestBeforeTheFirstReadingIsNothing() throws IOException {
		readAt(103, 5, 40_000);
		readAt(106, 9, 60_000);
		assertThat(this.history.during(101 * SECOND, 104 * SECOND)).isNull();
	}

	@Test
	void aRequestNotEndedByTheLatestReadingIsToldUpToIt() throws IOException {
		readAt(100, 0, 0);
		readAt(103, 2, 10_000);
		assertThat(this.history.during(101 * SECOND, 104 * SECOND))
			.isEqualTo(new ThrottlingHistory.Throttled(2, 10_000_000L, 3 * SECOND));
	}

	@Test
	void readingsOlderThanTheRingAreForgotten() throws IOException {
		for (int i = 0; i <= ThrottlingHistory.READINGS; i++) {
			readAt(100 + i, i, i * 1_000L);
		}
		// The reading at 100 s was overwritten: nothing brackets a request from 100.5 s.
		assertThat(this.history.during(100 * SECOND + SECOND / 2, 101 * SECOND)).isNull();
		assertThat(this.history.during(101 * SECOND + SECOND / 2, 102 * SECOND))
			.isEqualTo(new ThrottlingHistory.Throttled(1, 1_000_000L, SECOND));
	}

	@Test
	void withoutAFileNothingIsReadNorFound() {
		ThrottlingHistory none = ThrottlingHistory.of(this.root.resolve("elsewhere"), this.clock::get);
		assertThat(none).isSameAs(ThrottlingHistory.NONE);
		assertThat(none.available()).isFalse();
		none.read();
		assertThat(none.during(0, Long.MAX_VALUE)).isNull();
	}

	private void readAt(long seconds, long periods, long micros) throws IOException {
		counts(periods, micros);
		this.clock.set(seconds * SECOND);
		this.history.read();
	}

	private void counts(long periods, long micros) throws IOException {
		Files.writeString(this.root.resolve("sys/fs/cgroup/cpu.stat"),
				"usage_usec 1\nnr_periods 1000\nnr_throttled " + periods + "\nthrottled_usec " + micros + "\n");
	}

}
