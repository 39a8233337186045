package dev.spanprofile.sampling;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waits are an addition to the engine that samples: their failures never stop the
 * samples, and their delivery promise holds the profiles back only while they run.
 */
class EngineWithWaitsTest {

	@Test
	void bothDeliverAndTheEarlierPromiseIsKept() throws Exception {
		Scripted sampler = new Scripted("cpu", 1_000);
		Scripted waits = new Scripted("waits", 400);
		EngineWithWaits engine = new EngineWithWaits(sampler, waits);
		engine.start();
		List<SampleKind> delivered = new ArrayList<>();
		long upTo = engine.collect((kind, thread, time, stack, weight) -> delivered.add(kind));
		assertThat(upTo).isEqualTo(400);
		assertThat(engine.sampledUpTo()).as("the sampler's own promise, for a reader that needs no waits")
			.isEqualTo(1_000);
		assertThat(delivered).containsExactly(SampleKind.CPU, SampleKind.WAIT);
		assertThat(engine.activeEvent()).isEqualTo("cpu,waits");
	}

	@Test
	void waitsThatCannotStartLeaveTheSamplerRunningAndSaySo() throws Exception {
		Scripted sampler = new Scripted("cpu", 1_000);
		Scripted waits = new Scripted("waits", 400);
		waits.refuseStart = true;
		EngineWithWaits engine = new EngineWithWaits(sampler, waits);
		engine.start();
		assertThat(sampler.started).isTrue();
		assertThat(engine.collect((kind, thread, time, stack, weight) -> {
		})).isEqualTo(1_000);
		assertThat(engine.activeEvent()).isEqualTo("cpu");
		assertThat(engine.note()).isEqualTo("waits are not recorded: no Flight Recorder here");
	}

	@Test
	void waitsThatEndNoLongerHoldTheProfilesBack() throws Exception {
		Scripted sampler = new Scripted("cpu", 1_000);
		Scripted waits = new Scripted("waits", 400);
		EngineWithWaits engine = new EngineWithWaits(sampler, waits);
		engine.start();
		waits.failCollect = true;
		assertThat(engine.collect((kind, thread, time, stack, weight) -> {
		})).as("the sampler's promise alone").isEqualTo(1_000);
		assertThat(waits.closed).isTrue();
		assertThat(engine.activeEvent()).isEqualTo("cpu");
		assertThat(engine.note()).isEqualTo("waits are no longer recorded: the stream ended");
		engine.close();
		assertThat(sampler.closed).isTrue();
	}

	private static final class Scripted implements SamplingEngine {

		private final String event;

		private final long upTo;

		boolean refuseStart;

		boolean failCollect;

		boolean started;

		boolean closed;

		Scripted(String event, long upTo) {
			this.event = event;
			this.upTo = upTo;
		}

		@Override
		public String name() {
			return this.event;
		}

		@Override
		public void start() throws SamplerUnavailableException {
			if (this.refuseStart) {
				throw new SamplerUnavailableException("no Flight Recorder here");
			}
			this.started = true;
		}

		@Override
		public long collect(SampleSink sink) throws IOException {
			if (this.failCollect) {
				throw new IOException("the stream ended");
			}
			sink.sample(this.event.equals("waits") ? SampleKind.WAIT : SampleKind.CPU, 1, 1, new int[] { 0 }, 1);
			return this.upTo;
		}

		@Override
		public String activeEvent() {
			return this.event;
		}

		@Override
		public void close() {
			this.closed = true;
		}

	}

}
