package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import dev.spanprofile.cgroup.ThrottlingHistory;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sampling can change while the application runs (waits recorded from when it is ready, a
 * sampler switched on the page): each line describes a request with the kinds sampled
 * when it is written, not those the log was made with.
 */
class SlowSpanLogKindsTest {

	private static final long MS = 1_000_000L;

	private final SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());

	private final AtomicReference<Set<SampleKind>> kinds = new AtomicReference<>(EnumSet.of(SampleKind.CPU));

	private final SlowSpanLog log = new SlowSpanLog(
			new SlowSpanLogSettings(Duration.ofMillis(100), 10, "/actuator/spanprofile"), this.store.frames(),
			this.kinds::get, () -> Duration.ofMillis(10), () -> 0L, ThrottlingHistory.NONE);

	@Test
	void aLineReadsTheSampleKindsAsTheyAreWhenItIsWritten() {
		List<String> lines;
		try (LoggedLines logged = new LoggedLines()) {
			lines = logged.lines();
			this.log.accept(requestWaitingOnTheDatabase("00000000000000a1", 0));
			this.kinds.set(EnumSet.of(SampleKind.CPU, SampleKind.WAIT));
			this.log.accept(requestWaitingOnTheDatabase("00000000000000a2", 2_000 * MS));
		}
		assertThat(lines).hasSize(2);
		assertThat(lines.get(0)).as("written while only CPU was sampled")
			.contains("CPU 60.0 ms of 1500 ms")
			.doesNotContain("socket I/O");
		assertThat(lines.get(1)).as("written once waits were sampled too")
			.contains("socket I/O 1400 ms (127.0.0.1:5432 1400 ms)", "1 round trip to 127.0.0.1:5432");
	}

	private SpanRecord requestWaitingOnTheDatabase(String spanId, long start) {
		SpanRecord root = this.store.spanStarted("f".repeat(32), spanId, null, false, "GET /checkout", "SERVER", start,
				"http-1");
		int pay = this.store.frames().intern("com.example.Checkout.pay", FrameKind.JAVA);
		this.store.addSample(root, SampleKind.CPU, new int[] { pay }, 6);
		int socket = this.store.frames().intern(WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"), FrameKind.WAIT);
		this.store.addSample(root, SampleKind.WAIT, new int[] { pay, socket }, 1_400 * MS);
		this.store.spanEnded(spanId, "GET /checkout", "OK", start + 1_500 * MS, false);
		return root;
	}

}
