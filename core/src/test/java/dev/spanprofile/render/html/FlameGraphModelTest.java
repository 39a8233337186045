package dev.spanprofile.render.html;

import java.util.List;

import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FlameGraphModelTest {

	private final FrameTable frames = new FrameTable();

	private final FrameClassifier classifier = new FrameClassifier(List.of("com.acme"));

	@Test
	void nodesComeDepthFirstWithTheHeaviestChildFirst() {
		StackTree tree = new StackTree();
		tree.add(stack("java.lang.Thread.run", "com.acme.Light.call"), 2);
		tree.add(stack("java.lang.Thread.run", "com.acme.Heavy.call"), 5);
		tree.add(stack("java.lang.Thread.run", "com.acme.Heavy.call", "java.util.HashMap.get"), 1);
		FlameGraphModel model = FlameGraphModel.builder("GET /x", this.frames, this.classifier).add(tree).build();

		assertThat(model.nodeCount()).isEqualTo(5);
		assertThat(names(model)).containsExactly("GET /x", "java.lang.Thread.run", "com.acme.Heavy.call",
				"java.util.HashMap.get", "com.acme.Light.call");
		assertThat(model.depth(3)).isEqualTo(3);
		assertThat(model.samples(0)).isEqualTo(8);
		assertThat(model.samples(2)).isEqualTo(6);
		assertThat(model.category(2)).isEqualTo(FrameCategory.APPLICATION);
		assertThat(model.category(3)).isEqualTo(FrameCategory.JDK);
		assertThat(model.category(0)).isEqualTo(FrameCategory.OTHER);
	}

	@Test
	void spansOfATraceBecomeChildrenOfTheRoot() {
		StackTree first = new StackTree();
		first.add(stack("com.acme.A.run"), 3);
		StackTree second = new StackTree();
		second.add(stack("com.acme.A.run"), 4);
		FlameGraphModel model = FlameGraphModel.builder("trace t", this.frames, this.classifier)
			.addSpan("GET /a", "aaaaaaaaaaaaaaaa", first)
			.addSpan("GET /b", "bbbbbbbbbbbbbbbb", second)
			.build();
		assertThat(names(model)).containsExactly("trace t", "GET /b", "com.acme.A.run", "GET /a", "com.acme.A.run");
		assertThat(model.samples(0)).isEqualTo(7);
		assertThat(model.category(1)).isEqualTo(FrameCategory.SPAN);
		assertThat(model.spanNodes()).containsEntry(1, "bbbbbbbbbbbbbbbb").containsEntry(3, "aaaaaaaaaaaaaaaa");
	}

	@Test
	void beyondTheMaximumTheLightestNodesAreFoldedKeepingEverySample() {
		StackTree tree = new StackTree();
		for (int i = 0; i < 500; i++) {
			tree.add(stack("com.acme.Root.run", "com.acme.Leaf.call" + i), (i < 10) ? 100 : 1);
		}
		FlameGraphModel model = FlameGraphModel.builder("GET /wide", this.frames, this.classifier).maxNodes(40).build();
		assertThat(model.nodeCount()).isEqualTo(1);
		model = FlameGraphModel.builder("GET /wide", this.frames, this.classifier).maxNodes(40).add(tree).build();
		assertThat(model.nodeCount()).isLessThanOrEqualTo(40);
		assertThat(model.hiddenNodes()).isPositive();
		assertThat(model.samples(0)).isEqualTo(1490);
		long childSamples = 0;
		for (int i = 0; i < model.nodeCount(); i++) {
			if (model.depth(i) == 2) {
				childSamples += model.samples(i);
			}
		}
		assertThat(childSamples).as("samples under the root frame, folded ones included").isEqualTo(1490);
		assertThat(names(model)).contains(FlameGraphModel.HIDDEN_NAME, "com.acme.Leaf.call0");
	}

	@Test
	void aFoldedPageKeepsAsManyOfTheHeaviestFramesAsFitWithTheirPlaceholder() {
		StackTree tree = new StackTree();
		for (int i = 1; i <= 100; i++) {
			tree.add(stack("com.acme.Wide.call" + i), i);
		}
		FlameGraphModel model = FlameGraphModel.builder("GET /wide", this.frames, this.classifier)
			.maxNodes(40)
			.add(tree)
			.build();
		// The root, the 38 heaviest (63 to 100) and one placeholder for the 62 lightest.
		assertThat(model.nodeCount()).isEqualTo(40);
		assertThat(model.hiddenNodes()).isEqualTo(62);
		assertThat(names(model)).contains("com.acme.Wide.call63", FlameGraphModel.HIDDEN_NAME)
			.doesNotContain("com.acme.Wide.call62");
		assertThat(model.samples(0)).isEqualTo(5050);
	}

	private List<String> names(FlameGraphModel model) {
		return java.util.stream.IntStream.range(0, model.nodeCount()).mapToObj(model::name).toList();
	}

	private int[] stack(String... names) {
		int[] ids = new int[names.length];
		for (int i = 0; i < names.length; i++) {
			ids[i] = this.frames.intern(names[i], FrameKind.JAVA);
		}
		return ids;
	}

}
