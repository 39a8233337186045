package dev.spanprofile.autoconfigure.otelagent;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.sampling.AsyncProfilerEngine;
import dev.spanprofile.tracking.ActivationRecorder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's span ends as the application receives them: a span's status is asked for
 * (which copies the span's data on the agent's side) only when the application keeps or
 * counts the span.
 */
class AgentSpanReceiverTests {

	/** Never started: names' statistics count requests whether or not it samples. */
	private final SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
			(frames) -> new AsyncProfilerEngine(SpanProfilerSettings.defaults().sampler(), frames));

	private final Set<String> stored = new HashSet<>();

	private final AgentSpanReceiver receiver = new AgentSpanReceiver(ActivationRecorder.global(),
			this.profiler.spanLifecycle(), this.stored::contains, null);

	@AfterEach
	void close() {
		this.profiler.close();
	}

	@Test
	void aChildTheApplicationDoesNotStoreIsNotAskedForItsStatus() {
		CountingStatus status = new CountingStatus(true);
		this.receiver.ended("00000000000000c1", false, "SELECT", status, 1_000_000, (name) -> null);
		assertThat(status.asked).hasValue(0);
	}

	@Test
	void aStoredChildIsAskedForItsStatusOnce() {
		this.stored.add("00000000000000c2");
		CountingStatus status = new CountingStatus(false);
		this.receiver.ended("00000000000000c2", false, "SELECT", status, 1_000_000, (name) -> null);
		assertThat(status.asked).hasValue(1);
	}

	@Test
	void aLocalRootIsCountedWithItsStatusWhetherStoredOrNot() {
		CountingStatus status = new CountingStatus(true);
		this.receiver.ended("00000000000000a1", true, "GET /orders", status, 2_000_000, (name) -> null);
		assertThat(status.asked).hasValue(1);
		NameSummary summary = this.profiler.aggregates().summary("GET /orders", Duration.ofHours(1));
		assertThat(summary.count()).isOne();
		assertThat(summary.errors()).isOne();
	}

	private static final class CountingStatus implements BooleanSupplier {

		private final AtomicInteger asked = new AtomicInteger();

		private final boolean error;

		CountingStatus(boolean error) {
			this.error = error;
		}

		@Override
		public boolean getAsBoolean() {
			this.asked.incrementAndGet();
			return this.error;
		}

	}

}
