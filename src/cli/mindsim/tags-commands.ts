import type { Command } from 'commander';
import { clientFrom } from './config.ts';
import { dim, printJson, type OutputOptions } from './terminal.ts';

/** `mindsim tags ls|rename|rm`: the account's tags (a mind's own: `mindsim minds tag`). */
export function tagsCommands(program: Command, global: () => OutputOptions): void {
  const tags = program.command('tags').description("list, rename and delete the account's tags");

  tags
    .command('ls')
    .alias('list')
    .description('the tags, by name')
    .action(async () => {
      const body = await clientFrom().tags.list();
      if (global().json) return printJson(body);
      if (!body.tags.length) return console.log(dim('No tags yet: mindsim minds tag <mindId> <names…>'));
      for (const t of body.tags) console.log(`${t.id}  ${t.name}`);
    });

  tags
    .command('rename <tagId> <name>')
    .description('rename a tag (an error if another tag has the name, whatever its case)')
    .action(async (tagId: string, name: string) => {
      const body = await clientFrom().tags.rename(tagId, name);
      if (global().json) return printJson(body);
      console.log(`Renamed tag ${body.tag.id} to "${body.tag.name}"`);
    });

  tags
    .command('rm <tagId>')
    .alias('delete')
    .description('delete a tag (it is removed from every mind)')
    .action(async (tagId: string) => {
      const body = await clientFrom().tags.delete(tagId);
      if (global().json) return printJson(body);
      console.log(`Deleted tag ${tagId}`);
    });
}
