package dev.spanprofile.render.html;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Names come from requests and code: markup in them must reach the browser as text. */
class PageEscapingTest {

	private static final String HOSTILE = "x</script><script>alert(1)</script><img src=x onerror=alert(2)>\"'&{{title}}";

	@Test
	void flameGraphPageEscapesTitlesFactsLinksAndTheEmbeddedData() {
		FrameTable frames = new FrameTable();
		StackTree tree = new StackTree();
		tree.add(new int[] { frames.intern("com.acme." + HOSTILE, FrameKind.JAVA) }, 3);
		FlameGraphModel model = FlameGraphModel.builder(HOSTILE, frames, new FrameClassifier(List.of()))
			.add(tree)
			.build();
		String html = FlameGraphPage.of(model)
			.title(HOSTILE)
			.fact("thread", HOSTILE)
			.note(HOSTILE)
			.link(HOSTILE, "abc\"def")
			.render();
		assertThat(html).doesNotContain("<script>alert").doesNotContain("<img src=x");
		assertThat(html).contains("&lt;/script&gt;&lt;script&gt;alert(1)").contains("abc&quot;def");
		// In the JSON block, < and > are escapes, so no </script> can end it early.
		String data = html.substring(html.indexOf("id=\"profile-data\">"),
				html.indexOf("</script>", html.indexOf("id=\"profile-data\">")));
		assertThat(data).contains("\\u003c/script\\u003e").doesNotContain("<");
		// A value that looks like a slot stays as it is.
		assertThat(html).contains("&amp;{{title}}");
		assertThat(html.indexOf("</script>", html.indexOf("id=\"profile-data\">")))
			.isLessThan(html.indexOf("<script type=\"module\">", html.indexOf("id=\"profile-data\">")));
	}

	@Test
	void kindSwitchAppearsWithTwoKindsAndMarksTheOneShown() {
		FrameTable frames = new FrameTable();
		FlameGraphModel model = FlameGraphModel.builder("span", frames, new FrameClassifier(List.of()))
			.add(new StackTree())
			.build();
		assertThat(FlameGraphPage.of(model).kind("cpu", "CPU", "x?event=cpu", true).render())
			.doesNotContain("class=\"views kinds\"");
		String html = FlameGraphPage.of(model)
			.kind("cpu", "CPU", "x?event=cpu", false)
			.kind("alloc", HOSTILE, "x?event=alloc&a=\"b", true)
			.render();
		assertThat(html).contains("<a id=\"kind-cpu\" href=\"x?event=cpu\">CPU</a>")
			.contains(
					"<a id=\"kind-alloc\" href=\"x?event=alloc&amp;a=&quot;b\" class=\"selected\" aria-current=\"page\">")
			.doesNotContain("<script>alert");
	}

	@Test
	void indexPageEscapesEveryRow() {
		String html = SpanIndexPage.create()
			.filter(HOSTILE)
			.row(new SpanIndexPage.Row("0123456789abcdef", "0123456789abcdef0123456789abcdef", HOSTILE, HOSTILE, true,
					"ERROR", 1_700_000_000_000_000_000L, 12.5, 3, List.of(new SelfTime.Entry("a." + HOSTILE, 3)), ""))
			.render();
		assertThat(html).doesNotContain("<script>alert").doesNotContain("<img src=x");
		assertThat(html).contains("href=\"spanprofile/0123456789abcdef\"").contains("in flight").contains("error");
	}

	@Test
	void indexPageListsTheFirstRowsAndSaysHowManyItLeavesOut() {
		SpanIndexPage page = SpanIndexPage.create();
		for (int i = 0; i < 250; i++) {
			page.row(new SpanIndexPage.Row(String.format("%016x", i), "0123456789abcdef0123456789abcdef", "GET /x",
					"server", false, "UNSET", 1_700_000_000_000_000_000L + i, 12.5, 3, List.of(), ""));
		}
		String html = page.render();
		assertThat(html.split("<tr data-start=")).hasSize(SpanIndexPage.LISTED + 1);
		assertThat(html).contains("Listing the first 100 of 250 spans")
			.contains("href=\"spanprofile/0000000000000063\"")
			.doesNotContain("href=\"spanprofile/0000000000000064\"")
			.contains("\"0000000000000064\"");
		assertThat(SpanIndexPage.create().render()).contains("<p id=\"listed\" class=\"listed\" hidden>");
	}

	@Test
	void indexPageHasWeightColumnsOnlyWhenAsked() {
		SpanIndexPage.Row row = new SpanIndexPage.Row("0123456789abcdef", "0123456789abcdef0123456789abcdef", "GET /x",
				"server", false, "UNSET", 1_700_000_000_000_000_000L, 12.5, 3, List.of(), "", "recent", 50_331_648L,
				2_500_000L);
		assertThat(SpanIndexPage.create().row(row).render()).doesNotContain("data-sort=\"allocated\"")
			.doesNotContain("td class=\"num allocated\"");
		assertThat(SpanIndexPage.create().weightColumns(true, true).row(row).render())
			.contains("data-sort=\"allocated\"")
			.contains("data-allocated=\"50331648\"")
			.contains("<td class=\"num allocated\">48.0 MB</td>")
			.contains("<td class=\"num lockwait\">2.5 ms</td>");
		assertThat(SpanIndexPage.create().weightColumns(true, false).render()).contains("colspan=\"7\"");
	}

	@Test
	void contentSecurityPolicyAllowsOnlyThePagesOwnScriptsAndStyleByHash() {
		String policy = PageAssets.contentSecurityPolicy();
		assertThat(policy).startsWith("default-src 'none'").doesNotContain("unsafe").contains("frame-ancestors 'self'");
		// The flame graph's, the span list's and the heatmap's scripts, and the style
		// sheet.
		assertThat(policy.split("'sha256-")).hasSize(5);
	}

	/**
	 * Each page's scripts are modules whose text hashes to one the policy lists: a script
	 * the policy does not name would be refused, and the page left without it.
	 */
	@Test
	void everyScriptOfEveryPageIsOneThePolicyAllows() throws Exception {
		FlameGraphModel model = FlameGraphModel.builder("span", new FrameTable(), new FrameClassifier(List.of()))
			.add(new StackTree())
			.build();
		String timeline = FlameGraphPage.of(model)
			.timeline(Map.of("durationMillis", 5.0, "lanes", List.of(), "entries", List.of()), null, "x")
			.render();
		String heatmap = FlameGraphPage.of(model)
			.heatmap(Map.of("startTimes", List.of(), "bandEdgesMillis", List.of(0.0), "counts", List.of(), "errors",
					List.of()), null, Map.of("name", "names?name=x"))
			.render();
		String policy = PageAssets.contentSecurityPolicy();
		Map<String, Integer> scriptsPerPage = Map.of(SpanIndexPage.create().render(), 1, timeline, 1, heatmap, 2);
		for (Map.Entry<String, Integer> page : scriptsPerPage.entrySet()) {
			Matcher script = Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL).matcher(page.getKey());
			int scripts = 0;
			while (script.find()) {
				if (script.group(1).contains("application/json")) {
					continue;
				}
				assertThat(script.group(1)).isEqualTo(" type=\"module\"");
				byte[] digest = MessageDigest.getInstance("SHA-256")
					.digest(script.group(2).getBytes(StandardCharsets.UTF_8));
				assertThat(policy).contains("'sha256-" + Base64.getEncoder().encodeToString(digest) + "'");
				scripts++;
			}
			assertThat(scripts).isEqualTo(page.getValue());
		}
	}

}
