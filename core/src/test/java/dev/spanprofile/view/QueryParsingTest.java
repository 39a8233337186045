package dev.spanprofile.view;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueryParsingTest {

	private static final SamplerSettings CPU = SamplerSettings.defaults();

	private static final SamplerSettings WALL = new SamplerSettings(ProfilingEvent.WALL, Duration.ofMillis(10),
			Path.of("."), null, null);

	private static final SamplerSettings CPU_AND_WALL = new SamplerSettings(
			Set.of(ProfilingEvent.CPU, ProfilingEvent.WALL), Duration.ofMillis(10), Path.of("."), null, null);

	@Test
	void sixteenHexCharactersAreASpanAndThirtyTwoATraceBothInLowerCase() {
		ProfileQuery span = ProfileQuery.parse("0123456789ABCDEF", null, CPU);
		assertThat(span.trace()).isFalse();
		assertThat(span.id()).isEqualTo("0123456789abcdef");
		ProfileQuery trace = ProfileQuery.parse("0123456789ABCDEF0123456789abcdef", null, CPU);
		assertThat(trace.trace()).isTrue();
		assertThat(trace.id()).isEqualTo("0123456789abcdef0123456789abcdef");
	}

	@Test
	void anythingElseIsABadRequestThatQuotesTheIdHarmlessly() {
		for (String id : new String[] { "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "" }) {
			assertThatThrownBy(() -> ProfileQuery.parse(id, null, CPU)).isInstanceOfSatisfying(ViewException.class,
					(ex) -> assertThat(ex.problem()).isEqualTo(ViewException.Problem.BAD_REQUEST));
		}
		assertThatThrownBy(() -> ProfileQuery.parse("<script>alert(1)</script>", null, CPU))
			.hasMessage("'?script?alert(1)??script?' is not a span id: expected 16 hexadecimal characters "
					+ "(or 32 for a trace id)");
	}

	@Test
	void eventDefaultsToCpuWhenSampledElseWallAndIgnoresCase() {
		assertThat(ProfileQuery.parse("0123456789abcdef", null, CPU_AND_WALL).kind()).isEqualTo(SampleKind.CPU);
		assertThat(ProfileQuery.parse("0123456789abcdef", " ", WALL).kind()).isEqualTo(SampleKind.WALL);
		assertThat(ProfileQuery.parse("0123456789abcdef", " Wall ", CPU_AND_WALL).kind()).isEqualTo(SampleKind.WALL);
	}

	@Test
	void anEventThatIsNotSampledSaysWhatIs() {
		assertThatThrownBy(() -> ProfileQuery.parse("0123456789abcdef", "wall", CPU))
			.hasMessage("No wall samples are taken: spanprofile.event is cpu");
		assertThatThrownBy(() -> ProfileQuery.parse("0123456789abcdef", "alloc\n", CPU))
			.hasMessage("No alloc samples are taken: spanprofile.event is cpu");
		assertThatThrownBy(() -> ProfileQuery.parse("0123456789abcdef", "heap\n", CPU))
			.hasMessage("event must be cpu, wall, alloc, lock or wait, was 'heap?'");
	}

	@Test
	void allocAndLockAreAskedForLikeCpuAndSayWhenNotSampled() {
		SamplerSettings all = new SamplerSettings(Set.of(ProfilingEvent.CPU, ProfilingEvent.ALLOC, ProfilingEvent.LOCK),
				Duration.ofMillis(10), Path.of("."), null, null);
		assertThat(ProfileQuery.parse("0123456789abcdef", " ALLOC", all).kind()).isEqualTo(SampleKind.ALLOC);
		assertThat(ProfileQuery.parse("0123456789abcdef", "lock", all).kind()).isEqualTo(SampleKind.LOCK);
		assertThat(ProfileQuery.parse("0123456789abcdef", null, all).kind()).isEqualTo(SampleKind.CPU);
		assertBadRequest(() -> ProfileQuery.parse("0123456789abcdef", "alloc", CPU_AND_WALL),
				"No alloc samples are taken: spanprofile.event is cpu,wall");
		assertBadRequest(() -> ProfileQuery.parse("0123456789abcdef", "lock", CPU),
				"No lock samples are taken: spanprofile.event is cpu");
	}

	@Test
	void theEventIsCheckedBeforeTheId() {
		assertThatThrownBy(() -> ProfileQuery.parse("nope", "nope", CPU)).hasMessageStartingWith("event must be");
	}

	@Test
	void listQueryDefaults() {
		SpanListQuery query = SpanListQuery.parse(null, null, " ");
		assertThat(query.limit()).isEqualTo(SpanListQuery.DEFAULT_LIMIT);
		assertThat(query.name()).isEmpty();
		assertThat(query.minDurationMillis()).isZero();
		assertThat(SpanListQuery.parse(" 7 ", "GET", "2.5")).isEqualTo(new SpanListQuery(7, "GET", 2.5));
	}

	@Test
	void listQueryRejectsNumbersOutOfRangeOrMalformed() {
		assertBadRequest(() -> SpanListQuery.parse("0", null, null), "limit must be at least 1, was 0");
		assertBadRequest(() -> SpanListQuery.parse("2147483648", null, null),
				"limit must be a whole number, was '2147483648'");
		assertBadRequest(() -> SpanListQuery.parse("1.5", null, null), "limit must be a whole number, was '1.5'");
		assertBadRequest(() -> SpanListQuery.parse(null, null, "-1"), "minDurationMillis must be zero or more, was -1");
		assertBadRequest(() -> SpanListQuery.parse(null, null, "NaN"),
				"minDurationMillis must be zero or more, was NaN");
		assertBadRequest(() -> SpanListQuery.parse(null, null, "Infinity"),
				"minDurationMillis must be zero or more, was Infinity");
		assertBadRequest(() -> SpanListQuery.parse(null, null, "<b>"),
				"minDurationMillis must be a number of milliseconds, was '?b?'");
	}

	@Test
	void formatParameterOverridesTheNegotiatedFormat() {
		assertThat(ProfileFormat.resolve(null, ProfileFormat.HTML)).isEqualTo(ProfileFormat.HTML);
		assertThat(ProfileFormat.resolve(" PPROF ", ProfileFormat.JSON)).isEqualTo(ProfileFormat.PPROF);
		assertBadRequest(() -> ProfileFormat.resolve("svg", ProfileFormat.JSON),
				"Unknown format 'svg': valid formats are json, collapsed, html, pprof");
		assertThat(ListFormat.resolve("html", ListFormat.JSON)).isEqualTo(ListFormat.HTML);
		assertBadRequest(() -> ListFormat.resolve("pprof", ListFormat.JSON), "Format 'pprof' is for one span's or "
				+ "trace's flame graph (/spanprofile/{id}); the span list is available as json, html");
		assertBadRequest(() -> ListFormat.resolve("svg", ListFormat.JSON),
				"Unknown format 'svg': valid formats for the span list are json, html");
	}

	@Test
	void echoKeepsPlainTextAndShortensLongInput() {
		assertThat(Echo.of("GET /a?b=<c>\r\n")).isEqualTo("GET ?a?b=?c???");
		assertThat(Echo.of("x".repeat(65))).isEqualTo("x".repeat(64) + "...");
		assertThat(Echo.of("x".repeat(64))).isEqualTo("x".repeat(64));
		assertThat(Echo.of("\uD83D\uDE00")).isEqualTo("?");
	}

	private static void assertBadRequest(Runnable parse, String message) {
		assertThatThrownBy(parse::run).isInstanceOfSatisfying(ViewException.class, (ex) -> {
			assertThat(ex.problem()).isEqualTo(ViewException.Problem.BAD_REQUEST);
			assertThat(ex).hasMessage(message);
		});
	}

}
