package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The page's modules joined into one script: each once, after what it imports, with no
 * import or export left (an inline module that kept them would fail to load); forms the
 * joining does not understand are refused, not passed on. The frame categories are the
 * page data's, not the script's.
 */
class ScriptModulesTest {

	@Test
	void joinsEachModuleOnceAfterItsImports() {
		String script = ScriptModules.join("joining", "entry");
		assertThat(script).containsOnlyOnce("const module$joining$a = ").containsOnlyOnce("const module$joining$b = ");
		assertThat(script.indexOf("const module$joining$a = ")).isLessThan(script.indexOf("const module$joining$b = "));
		assertThat(script.indexOf("const module$joining$b = "))
			.isLessThan(script.indexOf("const module$joining$entry = "));
		assertThat(script).contains("const { a } = module$joining$a;")
			.contains("return { b };")
			.doesNotContain("import ")
			.doesNotContain("export ");
	}

	@Test
	void thePageModulesJoinWithoutImportsOrExports() {
		assertJoined(PageAssets.FLAME_GRAPH_SCRIPT, "flamegraph", "tree", "names", "search", "format", "diff",
				"palette", "draw", "tooltip", "table", "legend", "sandwich", "describe", "url_state", "breadcrumb",
				"keyboard", "flame_view", "inspect", "page");
		assertJoined(PageAssets.FLAME_GRAPH_SCRIPT, "timeline", "format", "scale", "lanes", "draw", "page");
		assertJoined(PageAssets.INDEX_SCRIPT, "spans", "format", "records", "order", "rows", "list", "scatter_scale",
				"scatter_points", "dots", "scatter", "page");
		assertJoined(PageAssets.HEATMAP_SCRIPT, "heatmap", "format", "grid", "selection", "draw", "page");
	}

	/** Two directories' modules of the same name share a script without clashing. */
	@Test
	void modulesOfTwoDirectoriesKeepTheirOwnNames() {
		String script = PageAssets.FLAME_GRAPH_SCRIPT;
		assertThat(script.indexOf("const module$flamegraph$page = "))
			.isLessThan(script.indexOf("const module$timeline$page = "));
		assertThat(script).contains("const { drawTimeline } = module$timeline$draw;")
			.contains("const { createCanvasView } = module$flamegraph$draw;");
	}

	private static void assertJoined(String script, String directory, String... modules) {
		for (String module : modules) {
			assertThat(script).containsOnlyOnce("const module$" + directory + "$" + module + " = ");
		}
		assertThat(script).doesNotContainPattern("(?m)^\\s*(import|export) ");
	}

	@Test
	void refusesAnImportItCannotJoin() {
		assertThatIllegalStateException().isThrownBy(() -> ScriptModules.join("joining", "star"))
			.withMessageContaining("star.mjs: an import the pages cannot join");
	}

	/**
	 * The script draws categories from the page's data alone: the data lists every
	 * category at its ordinal with its label and colour, names' category numbers point
	 * into that list, and no category id appears in the script.
	 */
	@Test
	void thePageDataListsEveryCategoryAndTheScriptNamesNone() {
		FrameTable frames = new FrameTable();
		StackTree tree = new StackTree();
		tree.add(new int[] { frames.intern("java.lang.Thread.run", FrameKind.JAVA),
				frames.intern("com.acme.Checkout.total", FrameKind.JAVA) }, 3);
		FlameGraphModel model = FlameGraphModel
			.builder("GET /checkout", frames, new FrameClassifier(List.of("com.acme")))
			.add(tree)
			.build();
		String html = FlameGraphPage.of(model).render();
		String data = html.substring(html.indexOf("id=\"profile-data\">"));
		Matcher entry = Pattern
			.compile("\\{\"id\":\"(\\w+)\",\"label\":\"([^\"]+)\",\"colour\":\\{\"hue\":(\\d+),\"spread\":\\d+,"
					+ "\"saturation\":\\d+,\"lightness\":\\d+},\"legend\":(true|false),\"table\":(true|false)}")
			.matcher(data);
		List<String> listed = new ArrayList<>();
		while (entry.find()) {
			listed.add(entry.group(1) + "/" + entry.group(2) + "/" + entry.group(3));
		}
		assertThat(listed).containsExactlyElementsOf(Arrays.stream(FrameCategory.values())
			.map((category) -> category.id() + "/" + category.label() + "/" + PageCategories.colour(category).hue())
			.toList());
		Matcher names = Pattern.compile("\"names\":\\[(.*?)],\"categories\":\\[([\\d,]*)]").matcher(data);
		assertThat(names.find()).isTrue();
		List<String> nameList = Arrays.asList(names.group(1).replace("\"", "").split(","));
		List<String> categories = Arrays.asList(names.group(2).split(","));
		int application = Integer.parseInt(categories.get(nameList.indexOf("com.acme.Checkout.total")));
		int jdk = Integer.parseInt(categories.get(nameList.indexOf("java.lang.Thread.run")));
		assertThat(listed.get(application)).startsWith("application/");
		assertThat(listed.get(jdk)).startsWith("jdk/");
		// HTML element names are no categories; any other quoted category id would be the
		// script knowing one.
		String script = ScriptModules.join("flamegraph", "page").replaceAll("createElement\\('\\w+'\\)", "");
		for (FrameCategory category : FrameCategory.values()) {
			assertThat(script).as(category.id())
				.doesNotContain("'" + category.id() + "'")
				.doesNotContain("\"" + category.id() + "\"")
				.doesNotContainPattern("[{,]\\s*" + category.id() + ":");
		}
	}

}
