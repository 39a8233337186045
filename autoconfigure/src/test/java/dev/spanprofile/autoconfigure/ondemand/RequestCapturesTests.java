package dev.spanprofile.autoconfigure.ondemand;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RequestCapturesTests {

	private static final long SECOND = 1_000_000_000L;

	private final AtomicLong clock = new AtomicLong(1_000 * SECOND);

	private final RequestCaptures captures = new RequestCaptures(this.clock::get, () -> 0);

	/** Claims a request and settles it as one of the capture's route. */
	private String claimed(String method, String path) {
		RequestCaptures.Claim claim = this.captures.claim(method, path);
		assertThat(claim).as("%s %s claimed", method, path).isNotNull();
		claim.settle(true);
		return claim.name();
	}

	@Test
	void spanNameMatchesItsMethodAndRouteForItsCountOnly() {
		assertThat(this.captures.capturing()).isFalse();
		this.captures.start("http get /owners/{ownerId}", 2, Duration.ofMinutes(10));
		assertThat(this.captures.capturing()).isTrue();
		assertThat(this.captures.claim("POST", "/owners/7")).isNull();
		assertThat(this.captures.claim("GET", "/owners")).isNull();
		assertThat(this.captures.claim("GET", "/owners/7/pets")).isNull();
		assertThat(claimed("GET", "/owners/7")).isEqualTo("http get /owners/{ownerId}");
		this.clock.addAndGet(61 * SECOND);
		assertThat(this.captures.active()).singleElement()
			.satisfies((capture) -> assertThat(capture).containsEntry("count", 2)
				.containsEntry("captured", 1)
				.containsEntry("secondsLeft", 539L));
		assertThat(claimed("GET", "/owners/8")).isEqualTo("http get /owners/{ownerId}");
		// It has its requests: over.
		assertThat(this.captures.claim("GET", "/owners/9")).isNull();
		assertThat(this.captures.capturing()).isFalse();
		assertThat(this.captures.active()).isEmpty();
	}

	@Test
	void pathPatternMatchesAnyMethodUntilItsTimeIsUp() {
		this.captures.start("/owners/**", 100, Duration.ofSeconds(30));
		assertThat(claimed("POST", "/owners/7/pets")).isEqualTo("/owners/**");
		this.clock.addAndGet(29 * SECOND);
		assertThat(claimed("GET", "/owners")).isEqualTo("/owners/**");
		this.clock.addAndGet(SECOND);
		assertThat(this.captures.claim("GET", "/owners")).isNull();
		assertThat(this.captures.active()).isEmpty();
	}

	@Test
	void countZeroAndCancelEndACapture() {
		this.captures.start("/a", 5, Duration.ofMinutes(1));
		this.captures.start("/b", 5, Duration.ofMinutes(1));
		this.captures.start("/a", 0, Duration.ofMinutes(1));
		assertThat(this.captures.claim("GET", "/a")).isNull();
		assertThat(claimed("GET", "/b")).isEqualTo("/b");
		assertThat(this.captures.cancel(null)).isEqualTo(1);
		assertThat(this.captures.claim("GET", "/b")).isNull();
	}

	@Test
	void aRequestOfAnotherRouteGivesItsPlaceBack() {
		this.captures.start("http get /owners/{ownerId}", 1, Duration.ofMinutes(10));
		RequestCaptures.Claim other = this.captures.claim("GET", "/owners/new");
		assertThat(other.matches("/owners/new")).isFalse();
		// While it is pending its place is taken.
		assertThat(this.captures.claim("GET", "/owners/7")).isNull();
		other.settle(false);
		assertThat(this.captures.active()).singleElement()
			.satisfies((capture) -> assertThat(capture).containsEntry("captured", 0));
		RequestCaptures.Claim owner = this.captures.claim("GET", "/owners/7");
		// The route as the handler mapping gives it, whatever its variable is called.
		assertThat(owner.matches("/owners/{id}")).isTrue();
		assertThat(owner.matches(null)).isFalse();
		owner.settle(true);
		owner.settle(true);
		assertThat(this.captures.capturing()).isFalse();
	}

	@Test
	void aPathPatternCountsAnyRoute() {
		this.captures.start("/owners/**", 5, Duration.ofMinutes(10));
		assertThat(this.captures.claim("GET", "/owners/new").matches("/owners/new")).isTrue();
		assertThat(this.captures.claim("GET", "/owners/new").matches(null)).isTrue();
	}

	@Test
	void neitherANameNorAPatternIsRefusedNamingTheField() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.captures.start("owners", 5, Duration.ofMinutes(1)))
			.withMessageStartingWith("capture must be");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.captures.start("/owners/{id", 5, Duration.ofMinutes(1)))
			.withMessageStartingWith("capture is not a URL path pattern");
		assertThat(this.captures.capturing()).isFalse();
	}

	@Test
	void atMostTenAtOnce() {
		for (int i = 0; i < RequestCaptures.MAX_CAPTURES; i++) {
			this.captures.start("/p" + i, 1, Duration.ofMinutes(1));
		}
		assertThatIllegalArgumentException().isThrownBy(() -> this.captures.start("/p10", 1, Duration.ofMinutes(1)))
			.withMessageContaining("at most 10 captures");
		assertThat(this.captures.active()).hasSize(RequestCaptures.MAX_CAPTURES);
	}

}
