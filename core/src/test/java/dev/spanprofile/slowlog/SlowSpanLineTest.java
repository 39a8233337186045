package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

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
	void withoutWaitsTheProfilersHandlerIsNotTheRequestsCpu() {
		SpanRecord root = request();
		String line = SlowSpanLine.describe(root, this.store.frames(), Set.of(SampleKind.CPU), Duration.ofMillis(10),
				"/actuator/spanprofile");
		assertThat(line).startsWith("spanprofile: slow request \"GET /checkout\" took 1500 ms; CPU 60.0 ms of 1500 ms")
			.contains("top cpu self time: 100% Checkout.pay;")
			.doesNotContain("signalHandler");
	}

	private SpanRecord request() {
		long start = 1_000_000_000_000L;
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
