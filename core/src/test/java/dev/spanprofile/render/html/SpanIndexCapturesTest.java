package dev.spanprofile.render.html;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The span list's captures: without on-demand profiling no form and no policy hole beyond
 * its own origin; with it the captures in progress, each with its cancel button, and a
 * form that offers the listed names.
 */
class SpanIndexCapturesTest {

	private static SpanIndexPage.Row row(String name, boolean inFlight) {
		return new SpanIndexPage.Row("00f067aa0ba902b7", "4bf92f3577b34da6a3ce929d0e0e4736", name, "server", inFlight,
				"OK", 1_000_000_000L, 12.5, 3, List.of(), "no samples");
	}

	@Test
	void withoutCapturesThereIsNoForm() {
		String page = SpanIndexPage.create().row(row("http get /burn", false)).render();
		assertThat(page).doesNotContain("id=\"captures\"")
			.doesNotContain("<form")
			.doesNotContain("class=\"capture-cancel\"")
			.doesNotContain("<datalist");
	}

	@Test
	void capturesAreListedWithTheirCancelButtonAndAFormOfferingTheListedNames() {
		String page = SpanIndexPage.create()
			.row(row("http get /burn", false))
			.row(row("http get /burn", false))
			.row(row("http get /<pets>", false))
			.row(row("running", true))
			.captures(List.of(new SpanIndexPage.Capture("http get /o'wners", "Capturing 'http get /o'wners': 1 of 2")))
			.render();
		assertThat(page).contains("<section id=\"captures\"")
			.contains("<span class=\"capture-text\">Capturing &#39;http get /o&#39;wners&#39;: 1 of 2</span>")
			.contains("class=\"capture-cancel\" data-name=\"http get /o&#39;wners\" hidden>Cancel</button>")
			// Shown by the script, which is what makes it work.
			.contains("<form id=\"capture-form\" class=\"capture-form\" hidden>")
			.contains("<datalist id=\"capture-names\"><option value=\"http get /&lt;pets&gt;\">"
					+ "<option value=\"http get /burn\"></datalist>")
			.doesNotContain("<option value=\"running\">");
		assertThat(SpanIndexPage.create().captures(List.of()).render()).contains("None in progress.")
			.contains("<datalist id=\"capture-names\"></datalist>");
	}

	@Test
	void onlyTheListMayFetchAndOnlyFromItsOwnOrigin() {
		assertThat(SpanIndexPage.create().render())
			.contains(HtmlEscaper.escape("form-action 'none'; connect-src 'self'") + "\"");
		assertThat(PageAssets.indexContentSecurityPolicy()).contains("connect-src 'self'")
			.contains("form-action 'none'")
			.contains("frame-ancestors 'self'");
		assertThat(PageAssets.contentSecurityPolicy()).doesNotContain("connect-src");
		assertThat(PageAssets.META_POLICY).doesNotContain("connect-src");
	}

}
