package dev.spanprofile.render.html;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The page's modules joined into one script: each once, after what it imports, with no import or export left (an
 * inline module that kept them would fail to load); forms the joining does not understand are refused, not
 * passed on.
 */
class ScriptModulesTest {

	@Test
	void joinsEachModuleOnceAfterItsImports() {
		String script = ScriptModules.join("joining", "entry");
		assertThat(script).containsOnlyOnce("const module$a = ").containsOnlyOnce("const module$b = ");
		assertThat(script.indexOf("const module$a = ")).isLessThan(script.indexOf("const module$b = "));
		assertThat(script.indexOf("const module$b = ")).isLessThan(script.indexOf("const module$entry = "));
		assertThat(script).contains("const { a } = module$a;").contains("return { b };").doesNotContain("import ")
			.doesNotContain("export ");
	}

	@Test
	void thePageModulesJoinWithoutImportsOrExports() {
		String script = PageAssets.FLAME_GRAPH_SCRIPT;
		for (String module : new String[] { "tree", "names", "search", "format", "diff", "palette", "draw", "tooltip",
				"table", "legend", "sandwich", "page" }) {
			assertThat(script).containsOnlyOnce("const module$" + module + " = ");
		}
		assertThat(script).doesNotContainPattern("(?m)^\\s*(import|export) ");
	}

	@Test
	void refusesAnImportItCannotJoin() {
		assertThatIllegalStateException().isThrownBy(() -> ScriptModules.join("joining", "star"))
			.withMessageContaining("star.mjs: an import the pages cannot join");
	}

}
