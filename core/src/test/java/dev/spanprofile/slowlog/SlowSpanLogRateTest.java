package dev.spanprofile.slowlog;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlowSpanLogRateTest {

	private static final long MS = 1_000_000L;

	private final AtomicLong ticker = new AtomicLong();

	private final SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());

	private final SlowSpanLog log = new SlowSpanLog(
			new SlowSpanLogSettings(Duration.ofMillis(100), 3, "/management/spanprofile"), this.store.frames(),
			Set.of(SampleKind.CPU), Duration.ofMillis(10), this.ticker::get);

	private int sequence;

	@Test
	void linesBeyondTheLimitAreCountedAndToldInTheNextMinute() {
		List<String> lines;
		try (LoggedLines logged = new LoggedLines()) {
			lines = logged.lines();
			this.log.accept(fastRequest());
			assertThat(lines).isEmpty();
			for (int i = 0; i < 10; i++) {
				this.log.accept(slowRequest(i * 1000 * MS));
			}
			assertThat(lines).hasSize(3).allSatisfy((line) -> assertThat(line).contains("/management/spanprofile/"));
			this.ticker.addAndGet(59_000 * MS);
			this.log.accept(slowRequest(60_000 * MS));
			assertThat(lines).hasSize(3);
			this.ticker.addAndGet(2_000 * MS);
			this.log.accept(slowRequest(62_000 * MS));
			assertThat(lines).hasSize(4);
			assertThat(lines.get(3)).contains("8 more slow requests");
		}
	}

	private SpanRecord fastRequest() {
		this.store.spanStarted("tf", "fast", null, false, "GET /fast", "SERVER", 0, "main");
		this.store.spanEnded("fast", null, "OK", 100 * MS, false);
		return this.store.find("fast");
	}

	private SpanRecord slowRequest(long startEpochNanos) {
		String id = Integer.toString(this.sequence++);
		this.store.spanStarted("t" + id, id, null, false, "GET /slow", "SERVER", startEpochNanos, "main");
		this.store.spanEnded(id, null, "OK", startEpochNanos + 500 * MS, false);
		return this.store.find(id);
	}

}
