package dev.spanprofile.autoconfigure.startup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupSettings;
import org.junit.jupiter.api.Test;

import org.springframework.core.metrics.ApplicationStartup;
import org.springframework.core.metrics.StartupStep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our steps beside the application's own {@link ApplicationStartup}, on one stepped
 * clock: whatever our bookkeeping costs (here each change of the thread's activity takes
 * 5 ms), a step lasts as long in both, as PetClinic's beans must on
 * {@code /actuator/startup} and ours.
 */
class ProfilingApplicationStartupTests {

	private static final long BOOKKEEPING = 5_000_000;

	private final AtomicLong clock = new AtomicLong(1_000_000_000);

	private final TimingStartup application = new TimingStartup(this.clock);

	@Test
	void aStepLastsAsLongInTheApplicationsStartupAsInOurs() {
		StartupRecording recording = new StartupRecording(StartupSettings.defaults(), new FrameTable(), this.clock::get,
				(activity) -> this.clock.addAndGet(BOOKKEEPING), "start", this.clock.get());
		ApplicationStartup startup = ProfilingApplicationStartup.wrap(this.application, recording);
		StartupStep refresh = startup.start("spring.context.refresh");
		this.clock.addAndGet(7_000_000);
		StartupStep bean = startup.start("spring.beans.instantiate").tag("beanName", "ownerRepository");
		this.clock.addAndGet(300_000_000);
		bean.end();
		this.clock.addAndGet(1_000_000);
		refresh.end();
		List<dev.spanprofile.startup.StartupStep> ours = recording.steps();
		assertThat(ours).hasSize(3);
		assertThat(ours.get(1).name()).isEqualTo("spring.context.refresh");
		assertThat(ours.get(2).detail()).isEqualTo("ownerRepository");
		long now = this.clock.get();
		assertThat(ours.get(2).durationNanos(now)).isEqualTo(this.application.durations.get(0));
		assertThat(ours.get(1).durationNanos(now)).isEqualTo(this.application.durations.get(1));
	}

	/** An application's startup that times its steps on the test's clock. */
	private static final class TimingStartup implements ApplicationStartup {

		private final AtomicLong clock;

		private final List<Long> durations = new ArrayList<>();

		TimingStartup(AtomicLong clock) {
			this.clock = clock;
		}

		@Override
		public StartupStep start(String name) {
			long started = this.clock.get();
			return new StartupStep() {

				@Override
				public String getName() {
					return name;
				}

				@Override
				public long getId() {
					return 0;
				}

				@Override
				public Long getParentId() {
					return null;
				}

				@Override
				public StartupStep tag(String key, String value) {
					return this;
				}

				@Override
				public StartupStep tag(String key, Supplier<String> value) {
					return this;
				}

				@Override
				public Tags getTags() {
					return Collections::<Tag>emptyIterator;
				}

				@Override
				public void end() {
					TimingStartup.this.durations.add(TimingStartup.this.clock.get() - started);
				}

			};
		}

	}

}
