package dev.spanprofile.lifecycle;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The rate at which requests tracing did not sample are profiled, on a clock the test
 * moves: a second's worth at once, then one a spacing, whatever the requests' own rate.
 */
class UnsampledProfilingRateTest {

	private static final long MILLI = TimeUnit.MILLISECONDS.toNanos(1);

	@Test
	void aSecondsWorthAtOnceThenOneASpacing() {
		UnsampledProfilingRate rate = new UnsampledProfilingRate(50);
		long now = 123 * MILLI;
		int admitted = 0;
		for (int i = 0; i < 200; i++) {
			admitted += rate.admit(now) ? 1 : 0;
		}
		assertThat(admitted).as("a burst after a quiet stretch").isEqualTo(50);
		// 1,000 requests a second for ten seconds: 50 a second let in.
		admitted = 0;
		for (int i = 1; i <= 10_000; i++) {
			admitted += rate.admit(now + i * MILLI) ? 1 : 0;
		}
		assertThat(admitted).isBetween(499, 501);
	}

	@Test
	void aQuietServiceIsProfiledWhole() {
		UnsampledProfilingRate rate = new UnsampledProfilingRate(50);
		int admitted = 0;
		// 40 a second, in bursts of four every 100 ms.
		for (int burst = 0; burst < 100; burst++) {
			for (int i = 0; i < 4; i++) {
				admitted += rate.admit(burst * 100 * MILLI + i) ? 1 : 0;
			}
		}
		assertThat(admitted).isEqualTo(400);
	}

	@Test
	void zeroProfilesNoneAndLessIsRefused() {
		assertThat(new UnsampledProfilingRate(0).admit(0)).isFalse();
		assertThat(UnsampledProfilingRate.UNLIMITED.admit(0)).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> new UnsampledProfilingRate(-1))
			.withMessageContaining("0 or more, was -1");
	}

}
