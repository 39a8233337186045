package dev.spanprofile.slowlog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.cgroup.ThrottlingHistory;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class SlowSpanLineTest {

	private static final long MS = 1_000_000L;

	private final SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());

	private final int pay = this.store.frames().intern("com.example.Checkout.pay", FrameKind.JAVA);

	private final int handler = this.store.frames()
		.intern("libasyncProfiler-5074426373574794542.so.WallClock::signalHandler", FrameKind.NATIVE);

	@Test
	void lineSaysWhereTheTimeWentBeforeTheSelfTime() {
		SpanRecord root = request();
		String line = SlowSpanLine.describe(root, this.store.frames(), EnumSet.of(SampleKind.CPU, SampleKind.WAIT),
				Duration.ofMillis(10), "/actuator/spanprofile");
		assertThat(line).isEqualTo("spanprofile: slow request \"GET /checkout\" took 1500 ms; time: CPU 60.0 ms, "
				+ "socket I/O 1400 ms (127.0.0.1:5432 1400 ms), profiler 10.0 ms, unaccounted 30.0 ms; 1 round trip to 127.0.0.1:5432 (1400 ms); "
				+ "top cpu self time: 100% Checkout.pay; flame graph: /actuator/spanprofile/00000000000000f1");
	}

	@Test
	void lineSaysWhenTheContainersCpuLimitThrottledTheProcessAroundTheRequest(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("proc/self"));
		Files.writeString(root.resolve("proc/self/cgroup"), "0::/\n");
		Path cpuStat = root.resolve("sys/fs/cgroup/cpu.stat");
		Files.createDirectories(cpuStat.getParent());
		Files.writeString(cpuStat, "nr_periods 10\nnr_throttled 2\nthrottled_usec 30000\n");
		AtomicLong clock = new AtomicLong(START - 2_000 * MS);
		ThrottlingHistory throttling = ThrottlingHistory.of(root, clock::get);
		throttling.read();
		Files.writeString(cpuStat, "nr_periods 40\nnr_throttled 14\nthrottled_usec 210000\n");
		clock.set(START + 2_000 * MS);
		throttling.read();
		String line = SlowSpanLine.describe(request(), this.store.frames(), EnumSet.of(SampleKind.CPU, SampleKind.WAIT),
				Duration.ofMillis(10), "/actuator/spanprofile", throttling);
		assertThat(line).contains("; 1 round trip to 127.0.0.1:5432 (1400 ms); throttled by the container's CPU "
				+ "limit: 12 periods, 180 ms (the process, in the 4000 ms around the request); top cpu self time");
		assertThat(SlowSpanLine.describe(request(), this.store.frames(), EnumSet.of(SampleKind.CPU, SampleKind.WAIT),
				Duration.ofMillis(10), "/actuator/spanprofile", ThrottlingHistory.NONE))
			.doesNotContain("throttled");
	}

	@Test
	void withoutWaitsTheProfilersHandlerIsNotTheRequestsCpu() {
		SpanRecord root = request();
		String line = SlowSpanLine.describe(root, this.store.frames(), Set.of(SampleKind.CPU), Duration.ofMillis(10),
				"/actuator/spanprofile");
		assertThat(line).startsWith("spanprofile: slow request \"GET /checkout\" took 1500 ms; CPU 60.0 ms of 1500 ms")
			.contains("top cpu self time: 100% Checkout.pay;")
			.doesNotContain("signalHandler");
	}

	private static final long START = 1_000_000_000_000L;

	private SpanRecord request() {
		long start = START;
		SpanRecord root = this.store.spanStarted("f".repeat(32), "00000000000000f1", null, false, "GET /checkout",
				"SERVER", start, "http-1");
		this.store.addSample(root, SampleKind.CPU, new int[] { this.pay }, 6);
		this.store.addSample(root, SampleKind.CPU, new int[] { this.pay, this.handler }, 1);
		int socket = this.store.frames().intern(WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"), FrameKind.WAIT);
		this.store.addSample(root, SampleKind.WAIT, new int[] { this.pay, socket }, 1_400 * MS);
		this.store.spanEnded("00000000000000f1", "GET /checkout", "OK", start + 1_500 * MS, false);
		return root;
	}

}
