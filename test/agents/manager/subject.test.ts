// The question's subject, named bare as its first word, is a part of the code base when a directory has its
// name: "How does yaml resolve the tag of a plain scalar?" is about `yaml/`, not about Pygments' `YamlLexer`,
// whose method names "plain" and "scalar" too (tried as a new user would on PyYAML beside Pygments). Over
// real scopes' entry candidates, scored by the manager's entry round.
import { describe, expect, it } from "vitest";
import { bareSubject, OUTSIDE_SUBJECT_PRIOR, subjectPriors } from "../../../agents/manager/entry/subject.js";
import { entryRoundOver, sourceLines as lines, withScopes } from "../../helpers/scopes.js";

const SOURCES = {
  yaml: {
    "yaml/resolver.py": lines(
      "class BaseResolver:",
      "    def resolve(self, kind, value, implicit):",
      '        """Resolve the tag of a node from its value."""',
      "        for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], []):",
      "            if regexp.match(value):",
      "                return tag",
      "        return self.DEFAULT_SCALAR_TAG",
    ),
  },
  lexers: {
    "lexers/data.py": lines(
      "class YamlLexer:",
      "    def parse_plain_scalar_indent(self, token_class):",
      '        """Process indentation spaces in a plain scalar."""',
      "        return token_class",
    ),
  },
};

describe("the question's subject", () => {
  const scopes = withScopes("mesh-subject-", SOURCES);
  const round = (text: string) => entryRoundOver(scopes(), text);

  it("is the first word when the question names it bare", () => {
    expect(bareSubject("How does yaml resolve the tag of a plain scalar?")).toBe("yaml");
    expect(bareSubject("When requests is set up with max_retries, how does it wait?")).toBe("request");
    expect(bareSubject("How does Flask's test client keep cookies?")).toBe("flask");
    expect(bareSubject("How does the kernel read a partition table?")).toBeNull();
    expect(bareSubject("When a driver adds a disk, how is it read?")).toBeNull();
    expect(bareSubject("Who calls clone?")).toBeNull();
  });

  it("counts a start outside its directory less, and only when some start is under it", async () => {
    const yaml = await round("How does yaml resolve the tag of a plain scalar like true?");
    expect(yaml.candidates[0]?.file_path).toBe("yaml/resolver.py");
    const lexer = yaml.candidates.find((c) => c.file_path === "lexers/data.py");
    expect(lexer?.prior).toBe(OUTSIDE_SUBJECT_PRIOR);
    expect(lexer?.why).toContain("outside the question's subject, yaml");
    // Without the subject's name, the lexer's method names more of the question.
    const plain = await round("How is the tag of a plain scalar like true worked out?");
    expect(plain.candidates.find((c) => c.file_path === "lexers/data.py")?.prior).toBe(1);
    // A subject that names no directory changes nothing; nor does a header directory's namespace.
    expect(subjectPriors("How does pygments resolve a tag?", yaml.candidates).subject).toBeNull();
    expect(subjectPriors("How does Linux pick the next task?", [{ file_path: "include/linux/sched.h" }, { file_path: "kernel/sched/core.c" }]).subject).toBeNull();
  });
});
