package dev.spanprofile.render;

import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RenderTest {

	private final FrameTable frames = new FrameTable();

	private final int main = this.frames.intern("app.Main.main", FrameKind.JAVA);

	private final int work = this.frames.intern("app.Main.work", FrameKind.JAVA);

	private final int sleep = this.frames.intern("app.Main.sleep", FrameKind.JAVA);

	private final int memcpy = this.frames.intern("memcpy;odd", FrameKind.NATIVE);

	@Test
	void collapsedStacksListEachDistinctStackOnceRootFirst() {
		StackTree tree = new StackTree();
		tree.add(new int[] { this.main, this.work }, 3);
		tree.add(new int[] { this.main, this.work }, 2);
		tree.add(new int[] { this.main }, 1);
		tree.add(new int[] { this.main, this.work, this.memcpy }, 4);
		assertThat(CollapsedStacks.render(tree, this.frames)).isEqualTo("""
				app.Main.main 1
				app.Main.main;app.Main.work 5
				app.Main.main;app.Main.work;memcpy:odd 4
				""");
	}

	@Test
	@SuppressWarnings("unchecked")
	void jsonTreeCarriesTotalsSelfAndKind() {
		StackTree tree = new StackTree();
		tree.add(new int[] { this.main, this.work }, 3);
		tree.add(new int[] { this.main, this.sleep }, 1);
		Map<String, Object> root = FlameGraphTree.render("GET /orders", tree, this.frames);
		assertThat(root).containsEntry("name", "GET /orders").containsEntry("value", 4L);
		List<Map<String, Object>> top = (List<Map<String, Object>>) root.get("children");
		assertThat(top).hasSize(1);
		assertThat(top.get(0)).containsEntry("name", "app.Main.main")
			.containsEntry("value", 4L)
			.containsEntry("kind", "java");
		List<Map<String, Object>> second = (List<Map<String, Object>>) top.get(0).get("children");
		assertThat(second).extracting(node -> node.get("name") + "=" + node.get("value") + "/" + node.get("self"))
			.containsExactly("app.Main.work=3/3", "app.Main.sleep=1/1");
	}

	@Test
	void mergingTreesAddsCounts() {
		StackTree a = new StackTree();
		a.add(new int[] { this.main, this.work }, 2);
		StackTree b = new StackTree();
		b.add(new int[] { this.main, this.work }, 3);
		b.add(new int[] { this.main, this.sleep }, 1);
		a.addAll(b);
		assertThat(a.totalSamples()).isEqualTo(6);
		assertThat(CollapsedStacks.render(a, this.frames)).contains("app.Main.main;app.Main.work 5");
	}

}
