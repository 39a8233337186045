package dev.spanprofile.sampling;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A clock reference is only as good as the moment its clock read and its stamp share: a
 * thread descheduled between the two (a few milliseconds on a loaded machine) would shift
 * every event mapped with it by as much, and a sample could then come stamped before a
 * time the engine already vouched for (seen in CI: 4.4 ms).
 */
class JfrClockReferenceTest {

	private static final long DESCHEDULED_NANOS = TimeUnit.MILLISECONDS.toNanos(8);

	@Test
	void aReferenceWhoseThreadLostTheCpuBetweenReadAndStampIsNotUsed() throws Exception {
		JfrClock clock = new JfrClock();
		AtomicLong mapped = new AtomicLong();
		CountDownLatch probed = new CountDownLatch(1);
		try (RecordingStream stream = new RecordingStream()) {
			clock.listenTo(stream);
			stream.enable(Probe.class);
			stream.onEvent(Probe.NAME, (event) -> {
				mapped.set(clock.toNanoTime(event.getStartTime()));
				probed.countDown();
			});
			stream.startAsync();
			// A good reference first, then one whose thread sleeps between reading the
			// clock and the stamp, as a descheduled thread would.
			assertThat(JfrClock.commitReference(System::nanoTime)).isTrue();
			boolean[] first = { true };
			boolean written = JfrClock.commitReference(() -> {
				long now = System.nanoTime();
				if (first[0]) {
					first[0] = false;
					sleep(DESCHEDULED_NANOS);
				}
				return now;
			});
			assertThat(written).as("a reference read %d ms before its stamp", DESCHEDULED_NANOS / 1_000_000).isFalse();
			Probe probe = new Probe();
			long before = System.nanoTime();
			probe.begin();
			long after = System.nanoTime();
			probe.commit();
			assertThat(probed.await(Duration.ofSeconds(20).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			// Mapped with the good reference (off by at most half its reads' window): the
			// probe was stamped between the two reads around it.
			long slack = JfrClock.MAX_READ_WINDOW_NANOS;
			assertThat(mapped.get()).isBetween(before - slack, after + slack);
		}
	}

	private static void sleep(long nanos) {
		try {
			Thread.sleep(TimeUnit.NANOSECONDS.toMillis(nanos));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Name(Probe.NAME)
	@StackTrace(false)
	static final class Probe extends Event {

		static final String NAME = "dev.spanprofile.test.ClockProbe";

	}

}
