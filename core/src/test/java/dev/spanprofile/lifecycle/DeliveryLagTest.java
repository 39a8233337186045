package dev.spanprofile.lifecycle;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forgetting horizon follows the lag an engine's promise has shown, within fixed
 * bounds.
 */
class DeliveryLagTest {

	private static final long SECOND = 1_000_000_000L;

	@Test
	void anEngineThatHasShownNoLagGetsTheMinimum() {
		DeliveryLag lag = new DeliveryLag(CollectorSettings.forDumpInterval(Duration.ofSeconds(1)));
		assertThat(lag.horizon()).isEqualTo(60 * SECOND);
		lag.promised(10 * SECOND, 10 * SECOND);
		lag.promised(11 * SECOND, 11 * SECOND);
		assertThat(lag.horizon()).isEqualTo(60 * SECOND);
	}

	@Test
	void aPromiseThatMovesInLongStepsWidensTheHorizonToTwiceTheLongestStaleness() {
		DeliveryLag lag = new DeliveryLag(CollectorSettings.forDumpInterval(Duration.ofSeconds(1)));
		lag.promised(0, 1 * SECOND);
		// Frozen at 0 until 45 s: it had grown 45 s stale when it moved.
		lag.promised(0, 30 * SECOND);
		lag.promised(44 * SECOND, 45 * SECOND);
		assertThat(lag.horizon()).isEqualTo(90 * SECOND);
		// A shorter lag later does not narrow it.
		lag.promised(50 * SECOND, 51 * SECOND);
		assertThat(lag.horizon()).isEqualTo(90 * SECOND);
	}

	@Test
	void oneVeryLongStallDoesNotSetTheHorizonBeyondTheMaximum() {
		DeliveryLag lag = new DeliveryLag(CollectorSettings.forDumpInterval(Duration.ofSeconds(1)));
		lag.promised(0, 0);
		lag.promised(3600 * SECOND, 3600 * SECOND);
		assertThat(lag.horizon()).isEqualTo(600 * SECOND);
	}

}
