package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.view.ViewException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code ?await=}: waits on a stepped clock, never on the wall clock. */
class ProfileAwaitTests {

	private static final long MS = 1_000_000L;

	private final SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());

	private final AtomicLong now = new AtomicLong();

	private final AtomicLong completeUpTo = new AtomicLong();

	private final List<Long> sleeps = new ArrayList<>();

	private int collections;

	@Test
	void returnsOnceTheEndedSpansSamplesAreJoined() {
		this.store.spanStarted("t", "a", null, false, "GET /x", "SERVER", 1_000 * MS, "main");
		this.store.spanEnded("a", "GET /x", "OK", 1_500 * MS, false);
		// The collector joins samples up to the span's end after three polls.
		ProfileAwait await = await((nanos) -> {
			if (this.sleeps.size() == 3) {
				this.completeUpTo.set(1_500 * MS);
			}
		});
		assertThat(await.awaitComplete("a", Duration.ofSeconds(5))).isTrue();
		assertThat(this.sleeps).hasSize(3).allSatisfy((nanos) -> assertThat(nanos).isEqualTo(20 * MS));
		assertThat(this.collections).isEqualTo(3);
	}

	@Test
	void givesUpAtItsTimeoutAndWaitsNoLonger() {
		this.store.spanStarted("t", "b", null, false, "GET /x", "SERVER", 1_000 * MS, "main");
		ProfileAwait await = await((nanos) -> {
		});
		assertThat(await.awaitComplete("b", Duration.ofMillis(50))).isFalse();
		// 20 + 20 + the last 10: never beyond the timeout. A span in flight brings no
		// collection forward.
		assertThat(this.sleeps).containsExactly(20 * MS, 20 * MS, 10 * MS);
		assertThat(this.collections).isZero();
	}

	@Test
	void unknownSpanIsNotWaitedFor() {
		assertThat(await((nanos) -> {
		}).awaitComplete("0123456789abcdef", Duration.ofSeconds(5))).isFalse();
		assertThat(this.sleeps).isEmpty();
	}

	@Test
	void parsesDurationsAndRefusesOthersAndThoseAboveTheCap() {
		assertThat(ProfileAwait.parse(Map.of("await", "5s"))).isEqualTo(Duration.ofSeconds(5));
		assertThat(ProfileAwait.parse(Map.of("await", "500ms"))).isEqualTo(Duration.ofMillis(500));
		assertThat(ProfileAwait.parse(Map.of("await", "7"))).isEqualTo(Duration.ofSeconds(7));
		assertThat(ProfileAwait.parse(Map.of())).isNull();
		assertThatExceptionOfType(ViewException.class).isThrownBy(() -> ProfileAwait.parse(Map.of("await", "-1s")))
			.withMessageContaining("await must be a duration such as 5s");
		assertThatExceptionOfType(ViewException.class).isThrownBy(() -> ProfileAwait.parse(Map.of("await", "31s")))
			.withMessageContaining("await must be at most 30s");
	}

	private ProfileAwait await(java.util.function.LongConsumer onSleep) {
		return new ProfileAwait(this.store, this.completeUpTo::get, () -> this.collections++, this.now::get,
				(nanos) -> {
					this.sleeps.add(nanos);
					this.now.addAndGet(nanos);
					onSleep.accept(nanos);
				});
	}

}
