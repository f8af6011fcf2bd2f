// Words too common to discriminate between documents: English function words plus code noise.
// Compared against the lowercased word before stemming.

const ENGLISH = [
  "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been",
  "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "during",
  "each", "either", "etc", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here",
  "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me",
  "might", "more", "most", "must", "my", "myself", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other",
  "our", "ours", "ourselves", "out", "over", "own", "same", "shall", "she", "should", "so", "some", "such", "than", "that",
  "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "thus",
  "too", "under", "until", "up", "upon", "very", "via", "was", "we", "were", "what", "when", "where", "whether",
  "which", "while", "who", "whom", "why", "will", "with", "would", "yet", "you", "your", "yours", "yourself", "yourselves",
];

// Keywords and literals that appear in nearly every body; "return" also opens most doc summaries.
const CODE_NOISE = [
  "def", "elif", "else", "false", "let", "nil", "none", "null", "pass", "return", "returned", "returns",
  "self", "true", "var", "void",
];

export const STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH, ...CODE_NOISE]);
