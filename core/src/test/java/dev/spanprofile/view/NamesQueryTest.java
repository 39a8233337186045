package dev.spanprofile.view;

import java.time.Duration;
import java.time.Instant;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamesQueryTest {

	private static final SamplerSettings CPU = SamplerSettings.defaults();

	private static final Duration HOUR = Duration.ofHours(1);

	private static NamesQuery parse(String window, String name, String min, String max, String compare, String frame) {
		return NamesQuery.parse(window, name, min, max, compare, frame, null, CPU, HOUR);
	}

	@Test
	void windowsHaveAUnitAndAreCutToTheAggregateWindow() {
		assertThat(parse(null, null, null, null, null, null).window()).isEqualTo(HOUR);
		assertThat(parse("15m", null, null, null, null, null).window()).isEqualTo(Duration.ofMinutes(15));
		assertThat(parse(" 90s ", null, null, null, null, null).window()).isEqualTo(Duration.ofSeconds(90));
		assertThat(parse("2H", null, null, null, null, null).window()).isEqualTo(HOUR);
		assertThat(parse("7d", null, null, null, null, null).window()).isEqualTo(HOUR);
	}

	@Test
	void aNameWithARangeOrAComparison() {
		NamesQuery ranged = parse(null, "GET /a", "10", "250.5", null, null);
		assertThat(ranged.minNanos()).isEqualTo(10_000_000L);
		assertThat(ranged.maxNanos()).isEqualTo(250_500_000L);
		assertThat(ranged.compare()).isFalse();
		assertThat(ranged.kind()).isEqualTo(SampleKind.CPU);
		NamesQuery compared = parse(null, "GET /a", null, null, "Typical", null);
		assertThat(compared.compare()).isTrue();
		assertThat(compared.minNanos()).isNull();
	}

	@Test
	void badParametersAreBadRequestsThatSayWhy() {
		assertBad(() -> parse("15", null, null, null, null, null), "window must be a number with a unit");
		assertBad(() -> parse("0h", null, null, null, null, null), "window must be positive");
		assertBad(() -> parse("<script>", null, null, null, null, null), "window must be");
		assertBad(() -> parse(null, "a", "-5", null, null, null), "minDurationMillis must be between 0 and 1e9");
		assertBad(() -> parse(null, "a", "NaN", null, null, null), "minDurationMillis must be between");
		assertBad(() -> parse(null, "a", null, "ten", null, null), "maxDurationMillis must be a number");
		assertBad(() -> parse(null, "a", "9", "3", null, null), "greater than maxDurationMillis");
		assertBad(() -> parse(null, "a", null, null, "slower", null), "compare must be 'typical' or 'rest'");
		assertBad(() -> parse(null, "a", null, "3", "typical", null), "maxDurationMillis does not apply");
		assertBad(() -> parse(null, null, null, null, "typical", null), "name= is needed");
		assertBad(() -> parse(null, null, null, null, null, "a.B.c"), "name= is needed");
	}

	@Test
	void aHeatmapSelectionIsTwoInstantsAndADurationRange() {
		NamesQuery selected = select("2026-11-25T10:15:00Z", "2026-11-25T10:17:00.000Z", "0.125992", "16.126989", null);
		assertThat(selected.fromEpochNanos())
			.isEqualTo(Instant.parse("2026-11-25T10:15:00Z").toEpochMilli() * 1_000_000);
		assertThat(selected.toEpochNanos() - selected.fromEpochNanos()).isEqualTo(Duration.ofMinutes(2).toNanos());
		// Band edges written in milliseconds come back as the same nanoseconds, not one
		// short.
		assertThat(selected.minNanos()).isEqualTo(125_992L);
		assertThat(selected.maxNanos()).isEqualTo(16_126_989L);
		assertThat(selected.selects()).isTrue();
		assertThat(selected.selection().fromEpochNanos()).isEqualTo(selected.fromEpochNanos());
		NamesQuery rest = select("2026-11-25T10:15:00Z", null, null, null, "rest");
		assertThat(rest.compare()).isTrue();
		assertThat(rest.rest()).isTrue();
		assertThat(rest.selection().toEpochNanos()).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void badSelectionsAreBadRequestsThatSayWhy() {
		assertBad(() -> select("yesterday", null, null, null, null), "from must be an ISO-8601 instant");
		assertBad(() -> select(null, "1732529700000", null, null, null), "to must be an ISO-8601 instant");
		assertBad(() -> select("2026-11-25T10:17:00Z", "2026-11-25T10:15:00Z", null, null, null), "must be before to");
		assertBad(() -> select("2026-11-25T10:15:00Z", "2026-11-25T10:15:00Z", null, null, null), "must be before to");
		assertBad(() -> select(null, null, null, null, "rest"), "compare=rest needs a selection");
		assertBad(() -> select("2026-11-25T10:15:00Z", null, null, null, "typical"), "from and to do not apply");
		assertBad(() -> NamesQuery.parse(null, null, null, null, null, null, "2026-11-25T10:15:00Z", null, null, CPU,
				HOUR), "name= is needed");
	}

	private static NamesQuery select(String from, String to, String min, String max, String compare) {
		return NamesQuery.parse(null, "GET /a", min, max, compare, null, from, to, null, CPU, HOUR);
	}

	private static void assertBad(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
		assertThatThrownBy(call).isInstanceOfSatisfying(ViewException.class, (ex) -> {
			assertThat(ex.problem()).isEqualTo(ViewException.Problem.BAD_REQUEST);
			assertThat(ex.getMessage()).contains(message);
		});
	}

}
