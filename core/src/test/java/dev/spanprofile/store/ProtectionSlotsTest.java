package dev.spanprofile.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ranking alone, without a store: which claims earn a slot, which lose one, and why
 * each is kept. Through the store: {@link RetentionBudgetTest},
 * {@link ForcedRetentionTest}.
 */
class ProtectionSlotsTest {

	private static final long MINUTE = 60_000_000_000L;

	@Test
	void aSlowerRequestOutranksTheFastestOfItsNameWhichLosesItsOnlySlot() {
		ProtectionSlots<TestClaim> slots = new ProtectionSlots<>(new RetentionSettings(2, Duration.ofHours(1), 100, 0));
		List<TestClaim> changed = new ArrayList<>();
		TestClaim fast = new TestClaim(10, MINUTE, false);
		TestClaim medium = new TestClaim(20, MINUTE, false);
		assertThat(slots.take(fast, "GET /", false, changed)).isTrue();
		assertThat(slots.take(medium, "GET /", false, changed)).isTrue();
		assertThat(slots.mightTake("GET /", false, 10)).isFalse();
		assertThat(slots.mightTake("GET /", false, 11)).isTrue();
		assertThat(slots.take(new TestClaim(5, MINUTE, false), "GET /", false, changed)).isFalse();
		assertThat(changed).isEmpty();
		TestClaim slow = new TestClaim(30, MINUTE, false);
		assertThat(slots.take(slow, "GET /", false, changed)).isTrue();
		assertThat(changed).containsExactly(fast);
		assertThat(fast.holdsASlot()).isFalse();
		assertThat(fast.reason()).isEqualTo(RetainedAs.RECENT);
		assertThat(medium.reason()).isEqualTo(RetainedAs.SLOWEST);
	}

	@Test
	void aClaimOutrankedAsSlowestKeepsItsFailureSlot() {
		ProtectionSlots<TestClaim> slots = new ProtectionSlots<>(new RetentionSettings(1, Duration.ofHours(1), 100, 5));
		List<TestClaim> changed = new ArrayList<>();
		TestClaim failed = new TestClaim(10, MINUTE, false);
		slots.take(failed, "POST /orders", true, changed);
		assertThat(failed.reason()).isEqualTo(RetainedAs.SLOWEST);
		slots.take(new TestClaim(20, MINUTE, false), "POST /orders", false, changed);
		assertThat(changed).containsExactly(failed);
		assertThat(failed.holdsASlot()).isTrue();
		assertThat(failed.reason()).isEqualTo(RetainedAs.ERROR);
		// The next failure of the name in the same minute takes its slot.
		changed.clear();
		slots.take(new TestClaim(1, MINUTE + 1, false), "POST /orders", true, changed);
		assertThat(changed).containsExactly(failed);
		assertThat(failed.holdsASlot()).isFalse();
	}

	@Test
	void theOldestForcedClaimGoesBeyondTheForcedSlotsAndAVacatedClaimHoldsNone() {
		ProtectionSlots<TestClaim> slots = new ProtectionSlots<>(RetentionSettings.recentOnly());
		List<TestClaim> changed = new ArrayList<>();
		List<TestClaim> forced = new ArrayList<>();
		for (int i = 0; i <= ProtectionSlots.MAX_FORCED; i++) {
			TestClaim claim = new TestClaim(1, MINUTE, true);
			assertThat(slots.take(claim, "GET /", false, changed)).isTrue();
			forced.add(claim);
		}
		assertThat(changed).containsExactly(forced.get(0));
		assertThat(forced.get(0).holdsASlot()).isFalse();
		assertThat(forced.get(1).reason()).isEqualTo(RetainedAs.FORCED);
		slots.vacate(forced.get(1));
		assertThat(forced.get(1).holdsASlot()).isFalse();
		// Its slot is free: one more forced claim pushes none out.
		changed.clear();
		slots.take(new TestClaim(1, MINUTE, true), "GET /", false, changed);
		assertThat(changed).isEmpty();
	}

	private static final class TestClaim extends ProtectionSlots.Claim {

		TestClaim(long durationNanos, long endNanos, boolean forced) {
			super(durationNanos, endNanos, forced);
		}

	}

}
