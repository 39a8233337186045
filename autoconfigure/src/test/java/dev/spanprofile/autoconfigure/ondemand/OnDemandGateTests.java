package dev.spanprofile.autoconfigure.ondemand;

import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.autoconfigure.ondemand.OnDemandGate.Decision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OnDemandGateTests {

	private static final long SECOND = 1_000_000_000L;

	private final AtomicLong clock = new AtomicLong(7 * 60 * SECOND);

	@Test
	void onlyTheExactTokenForces() {
		OnDemandGate gate = new OnDemandGate("s3cret", false, 100, this.clock::get);
		assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.FORCED);
		assertThat(gate.decide("s3cre", "203.0.113.9")).isEqualTo(Decision.IGNORED);
		assertThat(gate.decide("s3cret ", "203.0.113.9")).isEqualTo(Decision.IGNORED);
		assertThat(gate.decide("", "203.0.113.9")).isEqualTo(Decision.IGNORED);
		assertThat(gate.decide(null, "203.0.113.9")).isEqualTo(Decision.IGNORED);
		// Loopback callers need the token too unless allowed.
		assertThat(gate.decide("anything", "127.0.0.1")).isEqualTo(Decision.IGNORED);
	}

	@Test
	void loopbackCallersWhenAllowedWithAnyValue() {
		OnDemandGate gate = new OnDemandGate(null, true, 100, this.clock::get);
		assertThat(gate.decide("1", "127.0.0.1")).isEqualTo(Decision.FORCED);
		assertThat(gate.decide("1", "0:0:0:0:0:0:0:1")).isEqualTo(Decision.FORCED);
		assertThat(gate.decide("1", "::1")).isEqualTo(Decision.FORCED);
		assertThat(gate.decide("1", "203.0.113.9")).isEqualTo(Decision.IGNORED);
		// Never a name to look up.
		assertThat(gate.decide("1", "localhost")).isEqualTo(Decision.IGNORED);
		assertThat(gate.decide("1", "cafe")).isEqualTo(Decision.IGNORED);
		assertThat(gate.decide("1", null)).isEqualTo(Decision.IGNORED);
	}

	@Test
	void atMostMaxPerMinuteAndAgainTheNextMinute() {
		OnDemandGate gate = new OnDemandGate("s3cret", false, 3, this.clock::get);
		for (int i = 0; i < 3; i++) {
			assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.FORCED);
		}
		assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.RATE_LIMITED);
		// A wrong value does not count, and is not told about the limit.
		assertThat(gate.decide("wrong", "203.0.113.9")).isEqualTo(Decision.IGNORED);
		this.clock.addAndGet(59 * SECOND);
		assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.RATE_LIMITED);
		this.clock.addAndGet(SECOND);
		assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.FORCED);
	}

	@Test
	void zeroPerMinuteRefusesEveryRightRequest() {
		OnDemandGate gate = new OnDemandGate("s3cret", false, 0, this.clock::get);
		assertThat(gate.decide("s3cret", "203.0.113.9")).isEqualTo(Decision.RATE_LIMITED);
	}

}
