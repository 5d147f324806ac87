/** The seed's generate_search_prompt: a research brief that drives search_papers and extract_info. */

export function searchPromptText(topic: string, numPapers: number): string {
  return `Search for ${numPapers} academic papers about '${topic}' using the search_papers tool, then study them. Follow these steps:

1. Call search_papers with topic='${topic}' and max_results=${numPapers}.
2. For each paper id it returns, call extract_info with that paper_id and note:
   - Paper title
   - Authors
   - Publication date
   - PDF link
   - Key findings (a brief summary)
   - Main contributions or innovations
   - Methods used
   - Relevance to '${topic}'
3. Then write a structured summary with:
   - An overview of the current state of research on '${topic}'
   - Common themes and trends across the papers, and how the papers compare with each other
   - Key research gaps and future directions
   - The most impactful or influential papers in this area
4. Use clear headings and bullet points, and link each paper's PDF.

Present both the detailed information for each paper and a high-level synthesis of the research landscape on '${topic}'.`;
}
