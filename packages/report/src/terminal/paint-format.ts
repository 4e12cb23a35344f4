/**
 * The styles `util.styleText` takes, named here so that the published declarations need no
 * `@types/node` (the console reporter hands them to `styleText`, which checks they are its own).
 */
type Foreground =
  | 'black'
  | 'red'
  | 'green'
  | 'yellow'
  | 'blue'
  | 'magenta'
  | 'cyan'
  | 'white'
  | 'gray'
  | 'grey'
  | `${'black' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white'}Bright`;
type Background = `bg${Capitalize<Foreground>}`;
type Modifier =
  | 'blink'
  | 'bold'
  | 'dim'
  | 'doubleunderline'
  | 'framed'
  | 'hidden'
  | 'inverse'
  | 'italic'
  | 'overlined'
  | 'reset'
  | 'strikethrough'
  | 'underline';

export type PaintStyle = Foreground | Background | Modifier;

/** One style, or several at once (`['bold', 'red']`). */
export type PaintFormat = PaintStyle | PaintStyle[];
